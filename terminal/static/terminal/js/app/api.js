// The terminal API (API.md, "Table terminal"), with the table's key.
//
// Every answer comes back as {kind, status, body}: kind "ok" (2xx), "refused"
// (4xx: the server said no, with the error shape {code, rule, detail, allowed}),
// "down" (5xx, or no answer at all: try again later).

const TIMEOUT_MS = 15000;

export class Api {
  constructor(base, {table = null, key = null, language = "en"} = {}) {
    this.base = base;
    this.table = table;
    this.key = key;
    this.language = language;
  }

  tablePath(path) {
    return `tables/${encodeURIComponent(this.table)}/${path}`;
  }

  async request(method, path, body, {idempotencyKey = null} = {}) {
    const headers = {Accept: "application/json", "Accept-Language": this.language};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.key) headers.Authorization = `Api-Key ${this.key}`;
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let response;
    try {
      const options = {method, headers, cache: "no-store"};
      if (body !== undefined) options.body = JSON.stringify(body);
      if (typeof AbortSignal !== "undefined" && AbortSignal.timeout) {
        options.signal = AbortSignal.timeout(TIMEOUT_MS);
      }
      response = await fetch(this.base + path, options);
    } catch (error) {
      return {kind: "down", status: 0, body: null, error: String(error)};
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (response.ok) {
      return {kind: "ok", status: response.status, body: data,
        replayed: response.headers.get("Idempotent-Replayed") === "true"};
    }
    if (response.status >= 500 || response.status === 429) {
      return {kind: "down", status: response.status, body: data,
        retryAfter: Number(response.headers.get("Retry-After")) || 0};
    }
    const error = (data && data.error) || {code: `http_${response.status}`, detail: ""};
    return {kind: "refused", status: response.status, body: data, error};
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body, options) {
    return this.request("POST", path, body, options);
  }

  pair(code) {
    return this.post("terminal/pair", {code});
  }

  state() {
    return this.get(this.tablePath("state"));
  }

  preview(record) {
    return this.post(this.tablePath("hands/preview"), record);
  }

  postHand(record, idempotencyKey) {
    return this.post(this.tablePath("hands"), record, {idempotencyKey});
  }

  seat(body, idempotencyKey) {
    return this.post(this.tablePath("seats"), body, {idempotencyKey});
  }

  // Seat a player the floor called here: the waiting list's own seating, so his
  // call ends as seated (WL2, WL5).
  seatCall(entry, body, idempotencyKey) {
    return this.post(this.tablePath(`calls/${entry}/seat`), body, {idempotencyKey});
  }

  topUp(seat, body, idempotencyKey) {
    return this.post(this.tablePath(`seats/${seat}/top-ups`), body, {idempotencyKey});
  }

  leave(seat, stack, idempotencyKey) {
    return this.post(this.tablePath(`seats/${seat}/leave`), {stack}, {idempotencyKey});
  }

  away(seat) {
    return this.post(this.tablePath(`seats/${seat}/away`), {});
  }

  back(seat) {
    return this.post(this.tablePath(`seats/${seat}/back`), {});
  }
}

// A new idempotency key (crypto.randomUUID needs a secure context: https or
// localhost, as the service worker does).
export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
