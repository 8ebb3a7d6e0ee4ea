// The bar at the top of every screen: the table and its structure (the level at a
// tournament table), the jackpots, whether the server answers and how many hands
// wait for it, and the language switch.

import {button, h, sheet} from "./dom.js";
import {LANGUAGE_NAMES, gettext, interpolate, money, time} from "./i18n.js";
import {describeError} from "./errors.js";
import {stakes} from "./dealer.js";

export function renderBar(app) {
  const table = app.table;
  const outbox = app.outbox;
  const parts = [];
  if (table) {
    parts.push(h("span", {class: "table-name", "data-role": "table"}, table.code));
    parts.push(h("span", {class: "stakes", "data-role": "stakes"}, stakes(table)));
    if (table.tournament) {
      const t = table.tournament;
      parts.push(h("span", {class: "level", "data-role": "level"}, t.on_break
        ? gettext("Break")
        : interpolate(gettext("Level %(level)s: %(small)s/%(big)s, ante %(ante)s"), {
          level: t.level, small: t.small_blind, big: t.big_blind, ante: t.ante || 0})));
    }
    if (table.jackpots && table.jackpots.length) {
      parts.push(h("span", {class: "jackpots", "data-role": "jackpots"},
        table.jackpots.map((j) => h("span", {}, `${j.name} `, h("b", {}, money(j.amount))))));
    }
  } else {
    parts.push(h("span", {class: "table-name"}, gettext("Table terminal")));
  }
  parts.push(h("span", {class: "spacer"}));
  if (outbox && app.pairing) parts.push(statusChip(app));
  parts.push(h("span", {class: "langs", role: "group", "aria-label": gettext("Language")},
    app.config.languages.map((code) => button(code.toUpperCase(), () => switchLanguage(app, code), {
      class: code === document.documentElement.lang ? "on" : "quiet",
      "data-lang": code, title: LANGUAGE_NAMES[code] || code, lang: code,
    }))));
  return h("header", {class: "bar"}, parts);
}

async function switchLanguage(app, code) {
  await app.setLanguage(code);
  app.render();
}

function statusChip(app) {
  const outbox = app.outbox;
  const waiting = outbox.waiting().length;
  const refused = outbox.refused().length;
  const offline = outbox.online === false;
  const words = [offline ? gettext("Offline") : gettext("Online")];
  if (waiting) {
    words.push(interpolate(gettext("Hands waiting: %(n)s"), {n: waiting}));
  }
  if (refused) {
    words.push(interpolate(gettext("Hands refused: %(n)s"), {n: refused}));
  }
  const kind = offline ? "offline" : waiting || refused ? "waiting" : "";
  return button(words.join(" · "), () => showQueue(app), {
    class: `status ${kind}`, "data-role": "status",
    "data-waiting": waiting, "data-refused": refused,
    "data-online": offline ? "false" : "true",
  });
}

// The queue: every hand not yet booked, and every refusal until the dealer has
// seen it (the floor keeps the refused hands too, to handle them).
export function showQueue(app) {
  const outbox = app.outbox;
  const rows = [...outbox.waiting(), ...outbox.refused()].map((entry) => {
    const refused = entry.status === "refused";
    return h("li", {class: refused ? "refused" : "", "data-hand": entry.hand_no},
      h("span", {}, h("b", {}, interpolate(gettext("Hand %(n)s"), {n: entry.hand_no})),
        " · ", time(entry.queued_at)),
      refused
        ? h("span", {class: "refusal"}, describeError(entry.error))
        : h("span", {}, interpolate(gettext("Tries: %(n)s"), {n: entry.attempts})),
      refused ? button(gettext("Seen"), async () => {
        await outbox.dismiss(entry);
        ui.close();
        showQueue(app);
      }, {class: "quiet", "data-action": "dismiss"}) : null);
  });
  const body = h("div", {class: "stack-col"},
    rows.length ? h("ul", {class: "queue-list"}, rows)
      : h("p", {}, gettext("Every hand is booked.")),
    h("p", {class: "hint"}, gettext(
      "Hands are posted in the order they were dealt, each once. A refused hand stays here and with the floor; the next hands go on.")),
    h("div", {class: "row"},
      button(gettext("Send now"), () => {
        outbox.kick();
        app.refresh();
      }, {class: "primary", "data-action": "send-now"}),
      button(gettext("Close"), () => ui.close(), {class: "quiet"})));
  const ui = sheet(gettext("Hands waiting"), body, {name: "queue"});
}
