// The hands waiting for the server: every hand goes into this queue (IndexedDB)
// with an Idempotency-Key the moment the dealer pushes it, and is posted from it in
// the order dealt, one at a time, each exactly once:
//
// - 2xx: booked (a retry of a hand whose answer was lost is answered again with the
//   first settlement: booked, once);
// - 4xx: refused. The hand is kept here and shown to the dealer (the server keeps it
//   for the floor too) and the queue goes on with the next hand;
// - 5xx or no answer: the server or the network is down. Nothing moves; the same
//   hand with the same key is tried again after a pause that doubles up to a minute.
// - 401: the table's key was revoked (unpaired): nothing moves until it is paired.

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 60000;

export class Outbox extends EventTarget {
  constructor(store, api) {
    super();
    this.store = store;
    this.api = api;
    this.entries = [];
    this.running = null;
    this.timer = null;
    this.pause = FIRST_PAUSE_MS;
    this.online = null;
    this.unpaired = false;
  }

  async load() {
    this.entries = await this.store.outbox();
    this.changed();
  }

  waiting() {
    return this.entries.filter((e) => e.status === "waiting");
  }

  refused() {
    return this.entries.filter((e) => e.status === "refused" && !e.dismissed);
  }

  booked() {
    return this.entries.filter((e) => e.status === "booked");
  }

  changed() {
    this.dispatchEvent(new Event("change"));
  }

  // Queue a hand record; `values` are written with it in one transaction.
  async add(record, key, values) {
    const entry = {
      table: record.table, hand_no: record.hand_no, record, key,
      status: "waiting", attempts: 0, queued_at: new Date().toISOString(),
      settlement: null, error: null, status_code: null,
    };
    entry.seq = await this.store.enqueue(entry, values);
    this.entries.push(entry);
    this.changed();
    this.kick();
    return entry;
  }

  // Try now (a new hand, the network back, the dealer's tap).
  kick() {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  async drain() {
    for (;;) {
      const entry = this.waiting()[0];
      if (!entry || this.unpaired) return;
      const answer = await this.api.postHand(entry.record, entry.key);
      entry.attempts += 1;
      if (answer.kind === "down") {
        this.setOnline(false);
        await this.store.updateEntry(entry);
        this.retryLater(answer.retryAfter);
        this.changed();
        return;
      }
      this.setOnline(true);
      this.pause = FIRST_PAUSE_MS;
      entry.status_code = answer.status;
      entry.answered_at = new Date().toISOString();
      if (answer.kind === "ok") {
        entry.status = "booked";
        entry.settlement = answer.body;
      } else if (answer.status === 401) {
        this.unpaired = true;
        await this.store.updateEntry(entry);
        this.changed();
        this.dispatchEvent(new Event("unpaired"));
        return;
      } else {
        entry.status = "refused";
        entry.error = answer.error;
      }
      await this.store.updateEntry(entry);
      this.changed();
      this.dispatchEvent(new CustomEvent("answered", {detail: entry}));
    }
  }

  retryLater(seconds) {
    const wait = Math.max(this.pause, (seconds || 0) * 1000);
    this.pause = Math.min(this.pause * 2, LONGEST_PAUSE_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, wait);
  }

  setOnline(online) {
    if (this.online !== online) {
      this.online = online;
      this.dispatchEvent(new Event("online"));
    }
  }

  async dismiss(entry) {
    entry.dismissed = true;
    await this.store.updateEntry(entry);
    this.changed();
  }
}
