// A hand as the dealer deals it: whose turn, what to call, the minimum raise and
// the pot-limit maximum, one tap an action; an illegal action refused with its
// reason before anything is posted; the board from the card picker; the showdown's
// cards or mucks; running it twice when every player left is all in and agrees.

import {button, h} from "./dom.js";
import {gettext, interpolate, money} from "./i18n.js";
import {amountKeypad} from "./keypad.js";
import {cardsRow, pickCards} from "./cards.js";
import {describeIllegal} from "./errors.js";
import {seatBox} from "./seats.js";
import * as dealer from "./dealer.js";

export function renderHand(app) {
  const table = app.table;
  const view = dealer.handView(table, app.hand);
  const count = table.seatsCount;
  const boxes = [];
  for (let n = 1; n <= count; n += 1) {
    const seat = view.seats.find((s) => s.seat === n);
    if (!seat) {
      const sitting = dealer.seatsView(table).find((s) => s.seat === n);
      boxes.push(seatBox(sitting ? {...sitting, badges: [[gettext("Not in the hand"), ""]]} : {seat: n},
        count, {classes: "out"}));
      continue;
    }
    const classes = [seat.folded ? "folded" : "", seat.acting ? "acting" : ""].join(" ");
    boxes.push(seatBox(seat, count, {classes}));
  }
  const centre = h("div", {class: "centre"},
    h("div", {class: "street", "data-role": "street"},
      interpolate(gettext("Hand %(n)s"), {n: view.handNo}), " · ", view.street),
    h("div", {class: "board-runs", "data-role": "board"},
      view.boards.map((board) => cardsRow(board))),
    h("div", {class: "pot", "data-role": "pot"},
      interpolate(gettext("Pot %(amount)s"), {amount: money(view.pot)})));
  // Cards to deal: the picker opens by itself, once for each time they're needed.
  if (view.needs && view.needs.kind !== "showdown") {
    const key = `${view.handNo}:${view.events}`;
    if (app.pickerFor !== key) {
      app.pickerFor = key;
      queueMicrotask(() => enterCards(app, view.needs, view.canRunTwice));
    }
  }
  return [
    h("main", {class: "main"}, h("div", {class: "felt"}, h("div", {class: "oval"}), centre, boxes)),
    renderFoot(app, view),
  ];
}

function renderFoot(app, view) {
  const refusal = h("p", {class: "refusal", role: "alert", "data-role": "refusal"},
    app.handRefusal || "");
  app.handRefusal = null;
  const info = h("div", {class: "info"});
  const actions = h("div", {class: "actions"});
  const undo = button(gettext("Undo"), () => dealer.undo(app), {
    class: "quiet", "data-action": "undo", disabled: !view.canUndo,
  });
  if (view.toAct !== null) {
    const seat = view.seats.find((s) => s.seat === view.toAct);
    const o = view.options;
    info.append(
      h("span", {class: "who", "data-role": "to-act"}, interpolate(gettext("Seat %(n)s: %(name)s to act"),
        {n: seat.seat, name: seat.name || seat.player})),
      h("span", {class: "facts", "data-role": "facts"}, facts(o, view.limit)));
    actions.append(...actionButtons(app, view.toAct, o, view.limit));
  } else if (view.needs && view.needs.kind !== "showdown") {
    info.append(h("span", {class: "who"}, needsText(view.needs)));
    actions.append(button(gettext("Enter the cards"), () => enterCards(app, view.needs, view.canRunTwice), {
      class: "primary", "data-action": "cards",
    }));
    if (view.canRunTwice) {
      actions.append(button(gettext("Run it twice"), () => dealer.runTwice(app), {
        "data-action": "run-twice",
      }));
    }
  } else if (view.showdown) {
    const seat = view.seats.find((s) => s.seat === view.showdown);
    info.append(h("span", {class: "who", "data-role": "to-show"},
      interpolate(gettext("Seat %(n)s: %(name)s shows or mucks"), {n: seat.seat, name: seat.name || seat.player})));
    actions.append(
      button(gettext("Show cards"), () => showCards(app, view, seat.seat), {class: "primary", "data-action": "show"}),
      button(gettext("Muck"), () => dealer.muck(app, seat.seat), {class: "fold", "data-action": "muck"}));
  } else if (view.over) {
    info.append(h("span", {class: "who"}, gettext("The hand is over.")));
    actions.append(button(gettext("Settle"), () => app.finishHand(), {
      class: "primary", "data-action": "settle",
    }));
  }
  info.append(refusal);
  actions.prepend(undo);
  return h("footer", {class: "foot"}, info, actions);
}

function facts(o, limit) {
  const parts = [];
  if (o.toCall) parts.push([gettext("To call"), money(o.toCall)]);
  const range = o.raise || o.bet;
  if (range) {
    parts.push([o.raise ? gettext("Min raise to") : gettext("Min bet"), money(range.min)]);
    if (limit === "PL" && Number.isSafeInteger(o.potLimitMax)) {
      parts.push([gettext("Pot limit"), money(o.potLimitMax)]);
    } else if (range.max !== range.min) {
      parts.push([gettext("Max"), money(range.max)]);
    }
  }
  return parts.flatMap(([label, value], i) => [i ? " · " : "", `${label} `, h("b", {}, value)]);
}

function actionButtons(app, seat, o, limit) {
  const tap = (action) => () => dealer.act(app, seat, action);
  const out = [];
  if (o.fold) out.push(button(gettext("Fold"), tap({type: "fold"}), {class: "fold", "data-action": "fold"}));
  if (o.check) out.push(button(gettext("Check"), tap({type: "check"}), {"data-action": "check"}));
  if (o.bringIn) {
    out.push(button(interpolate(gettext("Bring-in %(amount)s"), {amount: money(o.bringIn.to)}),
      tap({type: "bring_in"}), {"data-action": "bring-in"}));
  }
  if (o.call) {
    out.push(button(interpolate(gettext("Call %(amount)s"), {amount: money(o.call.amount)}),
      tap({type: "call"}), {"data-action": "call"}));
  }
  const kind = o.raise ? "raise" : o.bet ? "bet" : null;
  if (kind) {
    const range = o[kind];
    const label = kind === "raise" ? gettext("Raise to %(amount)s") : gettext("Bet %(amount)s");
    out.push(button(interpolate(label, {amount: money(range.min)}),
      tap({type: kind, to: range.min}), {"data-action": `${kind}-min`}));
    if (range.max > range.min && !(range.sizes && range.sizes.length < 2)) {
      out.push(button(kind === "raise" ? gettext("Raise…") : gettext("Bet…"),
        () => amountEntry(app, seat, kind, range, o, limit), {"data-action": kind}));
    }
  }
  if (o.allIn) {
    out.push(button(interpolate(gettext("All in %(amount)s"), {amount: money(o.allIn.to)}),
      tap({type: "allin"}), {class: "allin", "data-action": "allin"}));
  }
  return out;
}

// A bet or raise of any size: typed on the keypad, or one of the quick amounts.
function amountEntry(app, seat, kind, range, o, limit) {
  const quick = [{label: gettext("Minimum"), amount: range.min, role: "min"}];
  if (limit !== "PL" && Number.isSafeInteger(o.potLimitMax) && o.potLimitMax > range.min &&
      o.potLimitMax < range.max) {
    quick.push({label: gettext("Pot"), amount: o.potLimitMax, role: "pot"});
  }
  quick.push({label: limit === "PL" ? gettext("Pot limit") : gettext("All in"),
    amount: range.max, role: "max"});
  amountKeypad({
    title: kind === "raise"
      ? interpolate(gettext("Seat %(n)s raises to"), {n: seat})
      : interpolate(gettext("Seat %(n)s bets"), {n: seat}),
    quick,
    name: "bet",
    confirmLabel: kind === "raise" ? gettext("Raise") : gettext("Bet"),
    submit: (to) => {
      try {
        dealer.act(app, seat, {type: kind, to}, {raise: true});
        return null;
      } catch (error) {
        if (dealer.isIllegal(error)) return describeIllegal(error);
        throw error;
      }
    },
  });
}

function needsText(needs) {
  if (needs.kind === "board") {
    return interpolate(gettext("Deal the board: %(n)s cards"), {n: needs.count});
  }
  return interpolate(gettext("Deal the up-cards: %(n)s"), {n: needs.seats.length});
}

async function enterCards(app, needs, canRunTwice = false) {
  const count = needs.kind === "board" ? needs.count : needs.seats.length;
  const actions = canRunTwice
    ? [{label: gettext("Run it twice"), action: () => dealer.runTwice(app), name: "run-twice"}]
    : [];
  const cards = await pickCards({title: needsText(needs), count, used: dealer.usedCards(app.hand), actions});
  if (!cards) return;
  if (needs.kind === "board") {
    dealer.deal(app, cards);
  } else {
    // Stud: one up-card a seat, in the order of the seats asked for.
    dealer.deal(app, Object.fromEntries(needs.seats.map((seat, i) => [seat, cards[i]])));
  }
}

async function showCards(app, view, seat) {
  // In stud the seat's up-cards are known: only its down cards are picked.
  const up = view.seats.find((s) => s.seat === seat).up || [];
  const cards = await pickCards({
    title: interpolate(gettext("Seat %(n)s shows"), {n: seat}),
    count: view.holeCards - up.length, used: dealer.usedCards(app.hand),
  });
  if (cards) dealer.show(app, seat, [...cards, ...up]);
}
