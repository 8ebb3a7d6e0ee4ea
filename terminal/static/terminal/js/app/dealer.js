// The table as the terminal knows it, and the hand being dealt: the glue between
// the screens and the rules (rules/table.js plans a hand, rules/betting.js runs it,
// rules/settle.js settles it when the server can't).
//
// The table (kept in IndexedDB as it is) is plain JSON:
//   {code, seatsCount, status, game, structure, buyIn, policy, jackpots, tournament,
//    calls, seats: [{seat, player, name, stack, away, must_leave}], rules, lastHandNo}
// where `rules` is rules/table.js's state. A hand in play is kept as its log (the
// plan and every event since), and rebuilt by replaying it: a reload, a crash or an
// "undo" lands on exactly the same hand.

import {afterHand as rulesAfterHand, planHand, tableState} from "../rules/table.js";
import {GAMES, Hand, IllegalAction} from "../rules/betting.js";
import {settle} from "../rules/settle.js";
import {gettext, gettext_noop, interpolate, money} from "./i18n.js";
import {describeIllegal} from "./errors.js";


// -- The table -------------------------------------------------------------------

function seatOf(row) {
  return {
    seat: row.seat, player: row.player, name: row.name || "", stack: row.stack,
    away: row.state === "away", away_since: row.away_since || null,
    must_leave: row.must_leave || null, frozen: row.frozen || 0,
  };
}

// The table from the server's state (GET tables/{t}/state), on top of what the
// terminal had. `stacks`: take the server's seats and stacks (no hand waits to be
// booked, none is being dealt); otherwise keep the terminal's own.
export function fromServer(previous, body, {stacks}) {
  const last = body.last_hand || null;
  const table = {
    ...(previous || {}),
    code: body.table.code,
    seatsCount: body.table.seats,
    status: body.table.status,
    gamingDay: body.table.gaming_day,
    game: body.game,
    structure: body.structure,
    buyIn: body.buy_in || null,
    policy: body.policy ? body.policy.document : null,
    jackpots: body.jackpots || [],
    tournament: body.tournament || null,
    calls: body.calls || [],
    notices: body.notices || [],
    readAt: new Date().toISOString(),
  };
  const serverLast = last ? last.hand_no : 0;
  if (stacks || !previous || previous.code !== table.code) {
    table.seats = body.seats.map(seatOf);
    const button = last ? last.button : null;
    table.lastHandNo = Math.max(serverLast, previous && previous.code === table.code
      ? previous.lastHandNo : 0);
    table.rules = syncRules(previous && previous.code === table.code ? previous.rules : null,
      table.seats, button, table.lastHandNo, table.tournament);
  }
  return table;
}

// The rules' state of the table: kept across reads (missed blinds, the button),
// with the seats as they are now.
function syncRules(rules, seats, button, lastHandNo, tournament) {
  const rows = seats.map((s) => ({seat: s.seat, player: s.player, name: s.name, stack: s.stack,
    away: s.away}));
  return tableState({seats: rows, button: rules ? rules.button : button, lastHandNo,
    tournament: Boolean(tournament)}, rules);
}

export function currency(table) {
  return (table && table.policy && table.policy.currency) || "EUR";
}

// "NLHE €1/€2, ante €0.25, straddle €4"
export function stakes(table) {
  const s = table.structure;
  if (!table.game || !s) return gettext("No game");
  const parts = [`${table.game} ${money(s.small_blind)}/${money(s.big_blind)}`];
  if (s.ante) parts.push(interpolate(gettext("ante %(amount)s"), {amount: money(s.ante)}));
  if (s.bring_in) parts.push(interpolate(gettext("bring-in %(amount)s"), {amount: money(s.bring_in)}));
  return parts.join(", ");
}

// The seats between hands; `button`: the next hand's, when it is planned.
export function seatsView(table, button = null) {
  const rules = table.rules || {};
  return (table.seats || []).map((s) => {
    const badges = [];
    if (button === s.seat) badges.push([gettext("Button"), "button-badge"]);
    if (s.away) badges.push([gettext("Away"), "warn"]);
    const owes = missedOf(rules, s.seat);
    if (owes) badges.push([gettext("Missed blinds"), "warn"]);
    if (s.must_leave) badges.push([interpolate(gettext("Leaves (%(rule)s)"), {rule: s.must_leave}), "warn"]);
    return {...s, badges};
  });
}

function missedOf(rules, seat) {
  const row = (rules.seats || []).find((r) => r.seat === seat);
  return Boolean(row && row.missed && (row.missed.small || row.missed.big));
}

export function freeSeats(table) {
  const taken = new Set((table.seats || []).map((s) => s.seat));
  const free = [];
  for (let n = 1; n <= table.seatsCount; n += 1) if (!taken.has(n)) free.push(n);
  return free;
}

export function straddleAllowed(table) {
  return Boolean(table.structure && table.structure.straddle);
}

export function canDeal(table) {
  if (table.status && table.status !== "open") return {ok: false, reason: gettext("The table is closed.")};
  if (!table.game || !table.structure) return {ok: false, reason: gettext("The table has no game.")};
  if (table.tournament) {
    return {ok: false, reason: gettext("A tournament table posts no hand records: the floor keeps its busts and chip counts.")};
  }
  const playing = (table.seats || []).filter((s) => !s.away && s.stack > 0);
  if (playing.length < 2) return {ok: false, reason: gettext("Two players are needed to deal.")};
  const {error} = nextPlan(table);
  if (error) return {ok: false, reason: describeIllegal(error)};
  return {ok: true, reason: ""};
}

// -- The next hand ---------------------------------------------------------------

// The plan of the next hand as the rules make it now: who posts what, who waits
// and why, who may post now or straddle. Null with the reason when none can start.
export function nextPlan(table, {post = [], straddle = false} = {}) {
  const base = {game: table.game, structure: table.structure, handNo: table.lastHandNo + 1,
    present: table.seats.filter((s) => !s.away).map((s) => s.seat), post};
  try {
    const plan = planHand(table.rules, base);
    if (straddle && plan.canStraddle) {
      return {plan: planHand(table.rules, {...base, straddle: plan.canStraddle}), error: null};
    }
    return {plan, error: null};
  } catch (error) {
    if (isIllegal(error)) return {plan: null, error};
    throw error;
  }
}

// -- The hand --------------------------------------------------------------------

// The hand in play: the rules' Hand, and what the tablet keeps of it (its JSON,
// which holds every event: a reload or a crash lands on the same hand).
export function start(table, options, now) {
  const {plan, error} = nextPlan(table, options);
  if (!plan) throw error;
  const hand = new Hand({table: table.code, game: table.game, structure: table.structure,
    handNo: table.lastHandNo + 1, plan, startedAt: isoLocal(now)});
  return {hand, log: {handNo: plan.handNo || table.lastHandNo + 1, plan, hand: hand.toJSON()}};
}

export function resume(table, log) {
  return {hand: Hand.fromJSON(log.hand), log};
}

export function isIllegal(error) {
  return error instanceof IllegalAction;
}

function run(app, change) {
  const state = app.hand;
  try {
    change(state.hand);
  } catch (error) {
    if (isIllegal(error)) {
      app.handRefusal = describeIllegal(error);
      app.render();
      return false;
    }
    throw error;
  }
  state.log = {...state.log, hand: state.hand.toJSON()};
  app.saveHand().then(() => (state.hand.over ? app.finishHand() : app.render()));
  return true;
}

// One action of a seat. From the keypad (`raise`), an illegal amount is thrown
// back for the keypad to show in place; from the action keys it is shown in the
// foot. Either way the hand is as it was: the rules check before they change.
export function act(app, seat, action, {raise = false} = {}) {
  if (raise) {
    app.hand.hand.act(seat, action);
    const state = app.hand;
    state.log = {...state.log, hand: state.hand.toJSON()};
    app.saveHand().then(() => (state.hand.over ? app.finishHand() : app.render()));
    return true;
  }
  return run(app, (hand) => hand.act(seat, action));
}

export function deal(app, cards) {
  return run(app, (hand) => hand.deal(cards));
}

export function runTwice(app) {
  return run(app, (hand) => hand.runTwice());
}

export function show(app, seat, cards) {
  return run(app, (hand) => hand.show(seat, cards));
}

export function muck(app, seat) {
  return run(app, (hand) => hand.muck(seat));
}

export function undo(app) {
  return run(app, (hand) => hand.undo());
}

export function usedCards(state) {
  const hand = state.hand;
  const used = [];
  for (const board of hand.boards || [hand.board || []]) used.push(...board);
  for (const seat of hand.seats) used.push(...(seat.shown || []), ...(seat.up || []));
  return [...new Set(used)];
}

const STREET_WORDS = {
  preflop: gettext_noop("Preflop"), flop: gettext_noop("Flop"), turn: gettext_noop("Turn"),
  river: gettext_noop("River"), third: gettext_noop("Third street"),
  fourth: gettext_noop("Fourth street"), fifth: gettext_noop("Fifth street"),
  sixth: gettext_noop("Sixth street"), seventh: gettext_noop("Seventh street"),
  first: gettext_noop("First card"), second: gettext_noop("Second card"),
};

// What the hand screen draws.
export function handView(table, state) {
  const hand = state.hand;
  const names = Object.fromEntries(table.seats.map((s) => [s.seat, s.name]));
  const toAct = hand.over ? null : hand.toAct;
  const needs = hand.over || toAct !== null ? null : hand.needs();
  const plan = state.log.plan;
  const seats = hand.seats.map((s) => {
    const badges = [];
    if (s.seat === plan.button) badges.push([gettext("Button"), "button-badge"]);
    const post = postOf(plan, s.seat);
    if (post) badges.push([post, ""]);
    if (s.folded) badges.push([gettext("Folded"), ""]);
    if (s.mucked) badges.push([gettext("Mucked"), ""]);
    if (s.allIn) badges.push([gettext("All in"), "warn"]);
    if (s.present === false) badges.push([gettext("Away"), "warn"]);
    return {
      seat: s.seat, player: s.player, name: names[s.seat] || "", stack: s.behind,
      bet: s.bet, folded: s.folded || s.mucked, cards: [...(s.shown || s.up || [])],
      up: s.up || [],
      acting: s.seat === toAct, badges,
    };
  });
  const word = STREET_WORDS[hand.streetName];
  return {
    handNo: state.log.handNo, street: word ? gettext(word) : hand.streetName, seats,
    pot: hand.pot, toAct, needs,
    showdown: needs && needs.kind === "showdown" ? needs.seats[0] : null,
    options: toAct === null ? null : hand.options(),
    over: hand.over,
    boards: hand.boards && hand.boards.length ? hand.boards : [hand.board || []],
    canRunTwice: Boolean(needs && needs.kind === "board" && hand.canRunTwice),
    canUndo: hand.events.length > 0,
    events: hand.events.length,
    holeCards: cardsShown(table.game),
    limit: table.structure.kind,
  };
}

// How many cards a seat shows: its hole cards, or all its cards in stud.
function cardsShown(game) {
  const g = GAMES[game];
  if (!g) return 2;
  return g.stud ? g.seatCards || 7 : g.hole;
}

const POSTS = {
  ante: gettext_noop("Ante"), big_blind_ante: gettext_noop("Big blind ante"),
  small_blind: gettext_noop("Small blind"), big_blind: gettext_noop("Big blind"),
  new_player_blind: gettext_noop("New player's blind"),
  missed_big_blind: gettext_noop("Missed big blind"),
  missed_small_blind: gettext_noop("Dead small blind"),
  straddle: gettext_noop("Straddle"),
};

export function postOf(plan, seat) {
  const mine = ((plan && plan.posts) || []).filter((p) => p.seat === seat && p.kind !== "ante");
  if (!mine.length) return null;
  return mine.map((p) => `${POSTS[p.kind] ? gettext(POSTS[p.kind]) : p.kind} ${money(p.amount)}`)
    .join(" + ");
}

const WAITS = {
  away: gettext_noop("away"), no_chips: gettext_noop("no chips"),
  new_player: gettext_noop("new player: posts or waits for the big blind"),
  missed_blinds: gettext_noop("missed blinds: posts or waits for the big blind"),
  between_blinds_and_button: gettext_noop("between the blinds and the button"),
};

export function waitingReason(reason) {
  return WAITS[reason] ? gettext(WAITS[reason]) : reason;
}

// The hand record to post: the rules' record, with the table and the times.
export function record(table, state, now) {
  return {...state.hand.record({endedAt: isoLocal(now)}), table: table.code};
}

export function settleHere(table, handRecord) {
  return settle(handRecord, table.policy);
}

export function errorOf(error) {
  if (error && error.code) {
    return {code: error.code, rule: error.rule || "", detail: error.detail || error.message,
      allowed: error.allowed || null};
  }
  return {code: "error", detail: String(error)};
}

// The table after a pushed hand: the stacks as settled, the button moved, the
// missed blinds remembered (rules/table.js), the hand number taken.
export function afterHand(table, plan, handRecord, settlement) {
  const finals = Object.fromEntries(settlement.seats.map((s) => [s.seat, s.final_stack]));
  const seats = table.seats.map((s) => (s.seat in finals ? {...s, stack: finals[s.seat]} : s));
  const rules = rulesAfterHand(table.rules, plan, handRecord, settlement);
  return {...table, seats, rules, lastHandNo: handRecord.hand_no};
}

// ISO 8601 with the tablet's offset ("2026-11-29T21:04:11+02:00").
export function isoLocal(date) {
  const pad = (n) => String(Math.abs(n)).padStart(2, "0");
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
