// The reference table terminal: the dealer's tablet at a table.
//
// It talks to the product only through the terminal API, with the table's key
// (paired once with a one-time code). The table as the dealer deals it is kept on
// the tablet (IndexedDB): a hand is planned by rules/table.js, dealt by
// rules/betting.js, settled for the dealer to see before it is pushed (by the
// server's preview when it answers, by rules/settle.js when it doesn't), and
// queued to be posted in order, each exactly once, whether or not the server is
// there. The dealer never waits for the network.

import {Api, newKey} from "./api.js";
import {h} from "./dom.js";
import * as i18n from "./i18n.js";
import {Outbox} from "./outbox.js";
import {openStore} from "./store.js";
import {renderBar} from "./bar.js";
import {renderPairing} from "./pairing.js";
import {renderTable} from "./tableview.js";
import {renderHand} from "./handview.js";
import {renderPush} from "./pushview.js";
import * as dealer from "./dealer.js";

const REFRESH_MS = 20000;

export class App {
  constructor(config, root) {
    this.config = config;
    this.root = root;
    this.pairing = null;
    this.table = null;
    this.hand = null;
    this.push = null;
    this.message = null;
    this.reading = false;
  }

  async start() {
    this.registerWorker();
    this.store = await openStore();
    const saved = await this.store.get("language");
    await this.setLanguage(
      i18n.pickLanguage(saved, this.config.languages, this.config.default_language),
      {save: false});
    this.pairing = (await this.store.get("pairing")) || null;
    this.api = new Api(this.config.api, {language: i18n.language()});
    this.usePairing(this.pairing);
    this.outbox = new Outbox(this.store, this.api);
    this.outbox.addEventListener("change", () => this.renderBar());
    this.outbox.addEventListener("online", () => this.renderBar());
    this.outbox.addEventListener("answered", () => this.afterAnswer());
    this.outbox.addEventListener("unpaired", () => this.unpaired());
    await this.outbox.load();
    this.table = (await this.store.get("table")) || null;
    this.push = (await this.store.get("push")) || null;
    const log = await this.store.get("hand");
    if (log && this.table) this.hand = dealer.resume(this.table, log);
    window.addEventListener("online", () => this.outbox.kick());
    const code = new URLSearchParams(location.search).get("pair");
    if (code) history.replaceState(null, "", this.config.page);
    this.render();
    if (!this.pairing && code) await this.pair(code);
    if (this.pairing) {
      this.outbox.kick();
      await this.refresh();
    }
    setInterval(() => {
      if (this.pairing && !this.hand && !this.push) this.refresh();
    }, REFRESH_MS);
    document.body.dataset.ready = "true";
  }

  registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(this.config.sw, {scope: this.config.page})
      .catch(() => {});
  }

  usePairing(pairing) {
    this.pairing = pairing;
    this.api.table = pairing ? pairing.table : null;
    this.api.key = pairing ? pairing.key : null;
  }

  async setLanguage(code, {save = true} = {}) {
    await i18n.loadCatalogue(this.config.catalogue, code);
    if (this.api) this.api.language = code;
    if (save) await this.store.put("language", code);
    document.title = i18n.gettext("Table terminal");
  }

  // Pair this tablet with the code the floor made (or the QR code's address).
  async pair(code) {
    const answer = await this.api.pair(code.trim());
    if (answer.kind !== "ok") {
      this.message = answer.kind === "down"
        ? {kind: "down", text: i18n.gettext("The server doesn't answer. Try again.")}
        : {kind: "refused", error: answer.error};
      this.render();
      return false;
    }
    const pairing = {table: answer.body.table, key: answer.body.key,
      prefix: answer.body.prefix, paired_at: new Date().toISOString()};
    const old = this.pairing && this.pairing.table;
    if (old && old !== pairing.table) {
      // Another table: what this tablet knew of the old one no longer applies.
      this.table = null;
      this.hand = null;
      this.push = null;
      await this.store.putMany({table: undefined, hand: undefined, push: undefined});
    }
    await this.store.put("pairing", pairing);
    this.usePairing(pairing);
    this.outbox.unpaired = false;
    this.message = null;
    this.render();
    this.outbox.kick();
    await this.refresh();
    return true;
  }

  async unpaired() {
    this.usePairing(null);
    await this.store.delete("pairing");
    this.message = {kind: "notice", text: i18n.gettext(
      "This tablet is no longer paired with its table. Ask the floor for a new code.")};
    this.render();
  }

  // Read the table from the server. The stacks are taken only when no hand is
  // waiting to be booked: until then the terminal's own are ahead of the ledger.
  async refresh() {
    if (!this.pairing || this.reading) return;
    this.reading = true;
    try {
      const answer = await this.api.state();
      if (answer.kind === "ok") {
        this.outbox.setOnline(true);
        const waiting = this.outbox.waiting().length > 0;
        this.table = dealer.fromServer(this.table, answer.body, {stacks: !waiting && !this.hand});
        await this.store.put("table", this.table);
        i18n.setCurrency(dealer.currency(this.table));
      } else if (answer.kind === "down") {
        this.outbox.setOnline(false);
      } else if (answer.status === 401) {
        await this.unpaired();
        return;
      }
    } finally {
      this.reading = false;
    }
    this.render();
  }

  afterAnswer() {
    if (!this.outbox.waiting().length) this.refresh();
    else this.renderBar();
  }

  // The screens.
  screen() {
    if (!this.pairing) return "pairing";
    if (this.push) return "push";
    if (this.hand) return "hand";
    return "table";
  }

  render() {
    if (this.table) i18n.setCurrency(dealer.currency(this.table));
    const screen = this.screen();
    document.body.dataset.screen = screen;
    // For the tests (and a vendor's): where the terminal is, as data.
    document.body.dataset.events = this.hand ? String(this.hand.hand.events.length) : "";
    document.body.dataset.hand = this.hand ? String(this.hand.log.handNo) : "";
    const parts = {
      pairing: renderPairing,
      table: renderTable,
      hand: renderHand,
      push: renderPush,
    }[screen](this);
    this.bar = renderBar(this);
    this.root.replaceChildren(this.bar, ...parts);
  }

  renderBar() {
    if (!this.bar) return;
    const bar = renderBar(this);
    this.bar.replaceWith(bar);
    this.bar = bar;
  }

  // A hand begins: planned from the table as the terminal has it.
  async deal(options) {
    const started = dealer.start(this.table, options, new Date());
    this.hand = started;
    this.postNow = [];
    this.straddleNext = false;
    this.message = null;
    await this.store.put("hand", started.log);
    this.render();
  }

  async saveHand() {
    await this.store.put("hand", this.hand.log);
  }

  async abandonHand() {
    this.hand = null;
    await this.store.delete("hand");
    this.render();
  }

  // The hand is over: settle it for the dealer to see before it goes.
  async finishHand() {
    const record = dealer.record(this.table, this.hand, new Date());
    this.push = {record, settlement: null, source: null, refusal: null,
      log: this.hand.log};
    await this.store.putMany({push: this.push, hand: undefined});
    this.hand = null;
    this.render();
    await this.settlePush();
  }

  async settlePush() {
    const push = this.push;
    const answer = await this.api.preview(push.record);
    if (answer.kind === "ok") {
      this.outbox.setOnline(true);
      push.settlement = answer.body;
      push.source = "server";
      push.refusal = null;
    } else {
      if (answer.kind === "down") this.outbox.setOnline(false);
      push.refusal = answer.kind === "refused" ? answer.error : null;
      try {
        push.settlement = dealer.settleHere(this.table, push.record);
        push.source = "terminal";
      } catch (error) {
        push.settlement = null;
        push.source = null;
        push.localError = dealer.errorOf(error);
      }
    }
    if (this.push === push) {
      await this.store.put("push", push);
      this.render();
    }
  }

  // The dealer pushes: the hand joins the queue, the table moves on.
  async confirmPush() {
    const push = this.push;
    if (!push || !push.settlement) return;
    const table = dealer.afterHand(this.table, push.log.plan, push.record, push.settlement);
    await this.outbox.add(push.record, newKey(),
      {table, push: undefined, hand: undefined});
    this.table = table;
    this.push = null;
    this.render();
  }

  // Back to the hand (a card or an action to correct): the log minus its end.
  async reopenHand() {
    const push = this.push;
    this.hand = dealer.resume(this.table, push.log);
    this.push = null;
    await this.store.putMany({push: undefined, hand: this.hand.log});
    this.render();
  }

  flash(text, kind = "notice") {
    this.message = {kind, text};
    this.render();
  }
}

async function boot() {
  const config = JSON.parse(document.getElementById("terminal-config").textContent);
  const app = new App(config, document.getElementById("app"));
  window.terminal = app;
  try {
    await app.start();
  } catch (error) {
    document.getElementById("app").replaceChildren(
      h("p", {class: "refusal", style: {padding: "2rem"}}, String(error && error.stack || error)));
    throw error;
  }
}

boot();
