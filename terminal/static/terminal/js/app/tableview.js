// The table between hands: who sits where with what, the floor's calls to seat,
// a seat's top-up, break (BI9) and leaving (BI5), the straddle, and the next deal.

import {button, h, sheet} from "./dom.js";
import {gettext, interpolate, money} from "./i18n.js";
import {amountKeypad} from "./keypad.js";
import {describeError} from "./errors.js";
import {newKey} from "./api.js";
import {seatBox} from "./seats.js";
import * as dealer from "./dealer.js";

export function renderTable(app) {
  const table = app.table;
  if (!table) {
    return [h("main", {class: "main pairing"},
      h("h1", {}, gettext("Reading the table…")),
      h("p", {}, gettext("The server hasn't answered yet.")),
      button(gettext("Try again"), () => app.refresh(), {class: "primary", "data-action": "refresh"})),
    h("footer", {class: "foot"})];
  }
  const count = table.seatsCount;
  const check = dealer.canDeal(table);
  const choices = {post: app.postNow || [], straddle: Boolean(app.straddleNext)};
  const {plan} = check.ok ? dealer.nextPlan(table, choices) : {plan: null};
  const seats = dealer.seatsView(table, plan ? plan.button : null);
  const boxes = [];
  for (let n = 1; n <= count; n += 1) {
    const seat = seats.find((s) => s.seat === n) || {seat: n};
    boxes.push(seatBox(seat, count, {
      classes: seat.away ? "away" : "",
      onclick: () => (seat.player ? seatSheet(app, seat) : emptySeatSheet(app, n)),
    }));
  }
  const centre = h("div", {class: "centre"},
    h("div", {class: "street"}, interpolate(gettext("Hand %(n)s"), {n: table.lastHandNo + 1})),
    button(gettext("Deal"), () => app.deal(choices), {
      class: "primary", "data-action": "deal", disabled: !plan,
      style: {minHeight: "96px", minWidth: "220px", fontSize: "1.6rem"},
    }),
    check.ok ? null : h("p", {class: "notice", "data-role": "why-not"}, check.reason));
  const panel = renderPanel(app, plan);
  const main = panel.childElementCount ? "main with-panel has-panel" : "main with-panel";
  const said = app.message
    ? h("p", {class: app.message.kind === "notice" ? "notice" : "refusal", role: "alert",
      "data-role": "message"}, app.message.kind === "refused"
      ? describeError(app.message.error) : app.message.text)
    : null;
  return [
    h("main", {class: main},
      h("div", {class: "felt"}, h("div", {class: "oval"}), centre, boxes),
      panel),
    h("footer", {class: "foot"},
      h("div", {class: "info"},
        h("span", {class: "facts"}, gettext("Tap a seat to seat a player, top up, take a break or leave.")),
        said)),
  ];
}

// The next hand as the rules plan it: who posts, who waits and why; a seat that
// may post now instead of waiting, and the straddle, are one tap each.
function planNotes(app, plan) {
  const notes = [];
  if (plan.button) {
    notes.push(h("p", {"data-role": "plan"}, interpolate(gettext("Button: seat %(n)s"), {n: plan.button}),
      plan.smallBlind ? [" · ", interpolate(gettext("Small blind: seat %(n)s"), {n: plan.smallBlind})] : null,
      plan.bigBlind ? [" · ", interpolate(gettext("Big blind: seat %(n)s"), {n: plan.bigBlind})] : null));
  }
  for (const wait of plan.waiting || []) {
    const canPost = (plan.canPost || []).includes(wait.seat);
    const posting = (app.postNow || []).includes(wait.seat);
    notes.push(h("p", {class: "notice", "data-waiting": wait.seat},
      interpolate(gettext("Seat %(n)s waits: %(why)s"), {n: wait.seat, why: dealer.waitingReason(wait.reason)}),
      canPost ? [" ", button(gettext("Posts now"), () => {
        app.postNow = posting ? [] : [...(app.postNow || []), wait.seat];
        app.render();
      }, {class: posting ? "on" : "quiet", "data-post": wait.seat})] : null));
  }
  for (const seat of app.postNow || []) {
    const post = dealer.postOf(plan, seat);
    if (post) {
      notes.push(h("p", {class: "notice", "data-posting": seat}, interpolate(gettext("Seat %(n)s posts: %(what)s"), {n: seat, what: post}),
        " ", button(gettext("Posts now"), () => {
          app.postNow = app.postNow.filter((n) => n !== seat);
          app.render();
        }, {class: "on", "data-post": seat})));
    }
  }
  if (plan.canStraddle || app.straddleNext) {
    notes.push(button(app.straddleNext
      ? interpolate(gettext("Straddle: on (seat %(n)s)"), {n: plan.straddle || plan.canStraddle})
      : gettext("Straddle: off"), () => {
      app.straddleNext = !app.straddleNext;
      app.render();
    }, {class: app.straddleNext ? "on" : "quiet", "data-action": "straddle",
      "aria-pressed": app.straddleNext ? "true" : "false"}));
  }
  return h("div", {class: "plan stack-col"}, notes);
}

function renderPanel(app, plan) {
  const table = app.table;
  const calls = (table.calls || []).filter((c) => !c.house_move);
  const sitting = dealer.seatsView(table).filter((s) => s.away);
  return h("aside", {class: "panel"},
    plan ? h("h3", {}, gettext("Next hand")) : null,
    plan ? planNotes(app, plan) : null,
    calls.length ? h("h3", {}, gettext("Called by the floor")) : null,
    calls.length ? h("ul", {class: "calls", "data-role": "calls"}, calls.map((call) =>
      h("li", {"data-player": call.player},
        h("span", {}, h("b", {}, call.name || call.player), " ",
          call.buy_in ? `${money(call.buy_in.min)}–${call.buy_in.max === null ? "" : money(call.buy_in.max)}` : ""),
        call.refused
          ? h("span", {class: "refusal"}, describeError(call.refused))
          : button(gettext("Seat player"), () => seatCall(app, call, call.seat), {
            class: "primary", "data-action": "seat-call"})))) : null,
    sitting.length ? h("h3", {}, gettext("Sitting out")) : null,
    sitting.length ? h("ul", {class: "calls", "data-role": "sitting-out"}, sitting.map((s) =>
      h("li", {}, h("span", {}, `${s.seat} · ${s.name || s.player}`)))) : null);
}

// Seat changes move money the ledger must see in order: they wait until every
// hand dealt before them is booked, and need the server.
function blocked(app) {
  if (app.outbox.waiting().length) {
    return gettext("Wait until every hand is booked: the server must see the hands first.");
  }
  if (app.outbox.online === false) return gettext("The server doesn't answer: this needs it.");
  return null;
}

async function afterChange(app, answer, ui) {
  if (answer.kind === "ok") {
    app.message = null;
    if (ui) ui.close();
    await app.refresh();
    return null;
  }
  if (answer.kind === "down") {
    app.outbox.setOnline(false);
    return gettext("The server doesn't answer. Try again.");
  }
  return describeError(answer.error);
}

function methodChooser(state) {
  const choice = h("div", {class: "choice", role: "group", "aria-label": gettext("Paid in")});
  const draw = () => {
    choice.replaceChildren(
      h("span", {}, gettext("Paid in")),
      button(gettext("Cash"), () => {
        state.method = "cash";
        draw();
      }, {class: state.method === "cash" ? "on" : "quiet", "data-method": "cash"}),
      button(gettext("Chips"), () => {
        state.method = "chips";
        draw();
      }, {class: state.method === "chips" ? "on" : "quiet", "data-method": "chips"}));
  };
  draw();
  return choice;
}

function buyInQuick(range) {
  const quick = [];
  if (range && Number.isSafeInteger(range.min)) {
    quick.push({label: gettext("Minimum"), amount: range.min, role: "min"});
  }
  if (range && Number.isSafeInteger(range.short_min) && range.short_min < range.min) {
    quick.push({label: gettext("Short buy-in"), amount: range.short_min, role: "short"});
  }
  if (range && Number.isSafeInteger(range.max)) {
    quick.push({label: gettext("Maximum"), amount: range.max, role: "max"});
  }
  return quick;
}

// Seat a player the floor called here: the seat, the buy-in and how it is paid.
export function seatCall(app, call, seatNo) {
  const why = blocked(app);
  if (why) return app.flash(why, "refused");
  const free = dealer.freeSeats(app.table);
  const state = {method: "cash", seat: free.includes(seatNo) ? seatNo : free[0]};
  const seatChoice = h("div", {class: "choice", role: "group", "aria-label": gettext("Seat")});
  const drawSeats = () => {
    seatChoice.replaceChildren(h("span", {}, gettext("Seat")), ...free.map((n) =>
      button(String(n), () => {
        state.seat = n;
        drawSeats();
      }, {class: state.seat === n ? "on" : "quiet", "data-choose-seat": n})));
  };
  drawSeats();
  const extra = h("div", {class: "stack-col"}, seatChoice, methodChooser(state));
  amountKeypad({
    title: interpolate(gettext("Seat %(name)s"), {name: call.name || call.player}),
    quick: buyInQuick(call.buy_in || app.table.buyIn),
    name: "seat-player",
    confirmLabel: gettext("Seat player"),
    extra,
    submit: async (amount) => {
      const answer = await app.api.seatCall(call.entry, {seat: state.seat, amount,
        method: state.method}, newKey());
      return afterChange(app, answer, null);
    },
  });
}

function emptySeatSheet(app, seatNo) {
  const calls = (app.table.calls || []).filter((c) => !c.house_move && !c.refused);
  const body = h("div", {class: "stack-col"},
    calls.length
      ? calls.map((call) => button(call.name || call.player, () => {
        ui.close();
        seatCall(app, call, seatNo);
      }, {class: "primary", "data-player": call.player}))
      : h("p", {}, gettext("Nobody is called to this table. The floor calls players from the waiting list.")),
    h("div", {class: "row"}, button(gettext("Close"), () => ui.close(), {class: "quiet"})));
  const ui = sheet(interpolate(gettext("Seat %(n)s is free"), {n: seatNo}), body, {name: "empty-seat"});
}

function seatSheet(app, seat) {
  const refusal = h("p", {class: "refusal", role: "alert", "data-role": "refusal"});
  const act = (work) => async () => {
    const why = blocked(app);
    if (why) {
      refusal.textContent = why;
      return;
    }
    const text = await work();
    if (text) refusal.textContent = text;
  };
  const body = h("div", {class: "stack-col"},
    h("p", {}, h("b", {}, seat.name || seat.player), " · ", seat.player, " · ", money(seat.stack)),
    seat.away ? h("p", {class: "notice"}, gettext("Away from the table (BI9)")) : null,
    h("div", {class: "row start"},
      button(gettext("Top up"), act(async () => {
        ui.close();
        topUp(app, seat);
        return null;
      }), {class: "primary", "data-action": "top-up"}),
      seat.away
        ? button(gettext("Back"), act(async () =>
          afterChange(app, await app.api.back(seat.seat), ui)), {"data-action": "back"})
        : button(gettext("Away"), act(async () =>
          afterChange(app, await app.api.away(seat.seat), ui)), {"data-action": "away"}),
      button(interpolate(gettext("Leaves with %(stack)s"), {stack: money(seat.stack)}),
        act(async () => afterChange(app, await app.api.leave(seat.seat, seat.stack, newKey()), ui)),
        {class: "danger", "data-action": "leave"})),
    refusal,
    h("div", {class: "row"}, button(gettext("Close"), () => ui.close(), {class: "quiet"})));
  const ui = sheet(interpolate(gettext("Seat %(n)s"), {n: seat.seat}), body, {name: "seat"});
}

function topUp(app, seat) {
  const state = {method: "cash"};
  const range = app.table.buyIn || {};
  const room = Number.isSafeInteger(range.max) ? range.max - seat.stack : null;
  amountKeypad({
    title: interpolate(gettext("Top up seat %(n)s"), {n: seat.seat}),
    quick: room && room > 0 ? [{label: gettext("Up to the maximum"), amount: room, role: "max"}] : [],
    name: "top-up",
    confirmLabel: gettext("Top up"),
    extra: methodChooser(state),
    submit: async (amount) => afterChange(app,
      await app.api.topUp(seat.seat, {amount, method: state.method}, newKey()), null),
  });
}
