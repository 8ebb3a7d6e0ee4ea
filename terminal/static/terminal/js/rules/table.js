// The table between hands: who is dealt in, the button, and every post of the next
// hand; what the table remembers after it (the button, missed blinds, new players).
//
// Pure functions on plain JSON states (the app keeps them in IndexedDB); no function
// changes its arguments. Seats are numbered 1-12 clockwise, seat 1 left of the dealer.
//
// The rules, with their sources (RULES.md; FI = the Finnish room rules; RR = Robert's
// Rules of Poker, "Buttons and blinds"; TDA = the Poker TDA rules):
// - Dead button (RR Buttons and blinds 2b; TDA Dead button): the big blind goes to the
//   next player due for it; the small blind is posted from the seat that had the big
//   blind, the button sits where the small blind was, even before an empty seat (a
//   dead button) or with no small blind at all (its player gone or away). Nobody
//   escapes the big blind and nobody posts it twice in a row.
// - Heads-up (RR Buttons and blinds 3; TDA Heads-up): the button posts the small blind,
//   acts first before the flop and last after it; the big blind goes to the player who
//   did not have it last hand.
// - Missed blinds (FI "Maksamatta jääneet blindit"; RR Buttons and blinds): a player
//   away (BI9) or out of chips when the big blind passes his seat misses the big blind;
//   one away from the small-blind seat misses the small blind. Back at the table he
//   posts what he missed (the big blind live, the small blind dead: HS2) or waits for
//   the big blind; when the big blind reaches him he owes nothing more.
// - New players (RR Buttons and blinds): post a live big blind to be dealt in at once,
//   or wait for the big blind. Neither a new player nor one owing missed blinds is
//   dealt in on the small-blind or button seat, or between the button and the small
//   blind (RR, TDA: "not between the blinds and the button").
// - A game with fewer than two players ready starts again as a new game: everyone
//   present with chips is dealt in and owes nothing (RR Buttons and blinds 5).
//   Heads-up is such a game too: both are dealt in, posting their positions' blinds.
// - Straddle (HS11): the seat left of the big blind may post a live straddle (default
//   two big blinds) in no-limit and pot-limit games with three or more players; it
//   acts last before the flop. Not in limit or stud games (RR: no straddles in limit
//   games unless the house allows).
// - Antes (HS2): dead money, posted first; a big-blind ante (structure.big_blind_ante)
//   is posted by the big blind after his blind (TDA Big blind ante). Stud: antes only,
//   no button.
// - Tournament tables: an absent player is dealt in, posts his blinds and antes and his
//   hand is dead (TDA: at his seat when the last card of the initial deal is dealt);
//   there are no missed blinds to make up.

import { GAMES, IllegalAction, normalizeStructure } from "./betting.js";

export { IllegalAction };

const SEATS = 12;

function refuse(code, reason, extra) {
  throw new IllegalAction(code, reason, extra);
}

function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

/** Clockwise distance from seat ``a`` to seat ``b`` (0 … 11). */
function distance(a, b) {
  return (((b - a) % SEATS) + SEATS) % SEATS;
}

/** Whether ``x`` lies strictly between ``a`` and ``b`` going clockwise. */
function between(x, a, b) {
  const span = distance(a, b) || SEATS;
  const d = distance(a, x);
  return d > 0 && d < span;
}

/** The first of ``seats`` clockwise after ``from``. */
function nextOf(seats, from) {
  let best = null;
  for (const x of seats) {
    const d = distance(from, x) || SEATS;
    if (best === null || d < best[0]) best = [d, x];
  }
  return best[1];
}

function previousSeat(seat) {
  return seat === 1 ? SEATS : seat - 1;
}

// -- the table state ---------------------------------------------------------------

/**
 * The table state from the server's table state, keeping what ``previous`` (the state
 * stored on the tablet) knows that the server does not: missed blinds, new players,
 * and the last hand's blind positions.
 */
export function tableState(server = {}, previous = null) {
  // The server's GET tables/{table}/state, or {seats, button, lastHandNo, tournament}.
  const seats = server.seats || [];
  const last = server.last_hand || null;
  const button = last ? last.button ?? null : server.button ?? null;
  const lastHandNo = last ? last.hand_no ?? 0 : server.lastHandNo ?? 0;
  const tournament = Boolean(server.tournament);
  const before = new Map((previous?.seats || []).map((x) => [x.seat, x]));
  const localAhead = previous != null && (previous.lastHandNo || 0) > (lastHandNo || 0);
  const keep = previous != null && (previous.lastHandNo || 0) >= (lastHandNo || 0);
  const rows = seats
    .filter((row) => row && row.player)
    .map((row) => {
      const seat = Number(row.seat);
      const old = before.get(seat);
      const same = old != null && old.player === row.player;
      const away =
        row.away === true ||
        row.state === "away" ||
        (row.away === undefined && row.state === undefined && row.away_since != null);
      return {
        seat,
        player: row.player,
        name: row.name ?? (same ? old.name : null) ?? null,
        stack: same && localAhead ? old.stack : row.stack,
        away,
        status: same ? old.status : previous ? "new" : "active",
        missed: same ? { ...old.missed } : { small: false, big: false },
      };
    })
    .sort((a, b) => a.seat - b.seat);
  return {
    version: 1,
    button: keep ? previous.button ?? null : button ?? null,
    smallBlind: keep ? previous.smallBlind ?? null : null,
    bigBlind: keep ? previous.bigBlind ?? null : null,
    lastHandNo: Math.max(lastHandNo || 0, previous?.lastHandNo || 0),
    tournament,
    seats: rows,
  };
}

function withSeat(state, seat, change) {
  const next = clone(state);
  const row = next.seats.find((x) => x.seat === Number(seat));
  if (!row) refuse("empty_seat", `Seat ${seat} is empty.`, { seat: Number(seat) });
  change(row);
  return next;
}

/** A player takes a seat (from the floor's call): a new player (RR Buttons and blinds). */
export function seatPlayer(state, { seat, player, name = null, stack }) {
  seat = Number(seat);
  if (state.seats.some((x) => x.seat === seat)) {
    refuse("seat_taken", `Seat ${seat} is taken.`, { seat });
  }
  if (!Number.isSafeInteger(stack) || stack < 0) {
    refuse("bad_amount", "A stack is whole cents.", { seat });
  }
  const next = clone(state);
  next.seats.push({
    seat,
    player,
    name,
    stack,
    away: false,
    status: state.tournament ? "active" : "new",
    missed: { small: false, big: false },
  });
  next.seats.sort((a, b) => a.seat - b.seat);
  return next;
}

/** A player leaves his seat (BI5). */
export function leaveSeat(state, seat) {
  const next = clone(state);
  next.seats = next.seats.filter((x) => x.seat !== Number(seat));
  return next;
}

/** A player steps away or comes back (BI9); away he misses his blinds. */
export function setAway(state, seat, away) {
  return withSeat(state, seat, (row) => {
    row.away = Boolean(away);
  });
}

/** A seat's stack after a top-up (BI2) or a correction. */
export function setStack(state, seat, stack) {
  if (!Number.isSafeInteger(stack) || stack < 0) {
    refuse("bad_amount", "A stack is whole cents.", { seat: Number(seat) });
  }
  return withSeat(state, seat, (row) => {
    row.stack = stack;
  });
}

// -- the plan of a hand ------------------------------------------------------------

/**
 * Who is dealt in, the button and every post of the next hand.
 *
 * ``present``: the seats at the table (default: those not away); ``post``: new and
 * missed-blind seats that post now rather than wait; ``straddle``: the seat that
 * straddles (plan.canStraddle); ``button``: the first hand's button, by the draw.
 */
export function planHand(state, options = {}) {
  const { game, structure, present = null, post = [], straddle = null, button = null } = options;
  const info = GAMES[game];
  const st = normalizeStructure(game, structure);
  const handNo = options.handNo ?? (state.lastHandNo || 0) + 1;
  const here = present ? new Set(present.map(Number)) : null;
  const tournament = Boolean(state.tournament);
  const seated = (state.seats || []).filter((x) => x.player);
  const isHere = (x) => (here ? here.has(x.seat) : !x.away);
  const waiting = [];
  const eligible = [];
  for (const x of seated) {
    if (!(x.stack > 0)) waiting.push({ seat: x.seat, reason: "no_chips" });
    else if (!isHere(x) && !tournament) waiting.push({ seat: x.seat, reason: "away" });
    else eligible.push(x);
  }
  if (eligible.length < 2 || (tournament && !eligible.some(isHere))) {
    refuse("not_enough_players", "A hand needs two players with chips at the table.", {
      allowed: { min: 2 },
    });
  }
  const base = { game, structure: st, handNo, tournament, waiting, isHere, seated };
  const plan = info.stud
    ? planStud(eligible, base)
    : planButton(state, eligible, { ...base, post: new Set(post.map(Number)), button });
  if (straddle != null) {
    if (Number(straddle) !== plan.canStraddle) {
      refuse("straddle_not_allowed", "Only the player left of the big blind may straddle, in no-limit and pot-limit games of three or more.", {
        rule: "HS11",
        allowed: { seats: plan.canStraddle == null ? [] : [plan.canStraddle] },
        seat: Number(straddle),
      });
    }
    // canStraddle has the chips for it after his ante.
    const seat = plan.canStraddle;
    plan.posts.push({ seat, kind: "straddle", amount: st.straddle, live: st.straddle, dead: 0 });
    plan.straddle = seat;
  }
  return plan;
}

function dealtRow(x, isHere) {
  return { seat: x.seat, player: x.player, stack: x.stack, present: isHere(x) };
}

function planStud(eligible, { game, structure, handNo, waiting, isHere }) {
  const seats = eligible.map((x) => dealtRow(x, isHere));
  const posts = [];
  if (structure.ante > 0) {
    for (const x of seats) {
      const amount = Math.min(structure.ante, x.stack);
      posts.push({ seat: x.seat, kind: "ante", amount, live: 0, dead: amount });
    }
  }
  return {
    game,
    structure,
    handNo,
    button: null,
    smallBlind: null,
    bigBlind: null,
    straddle: null,
    headsUp: seats.length === 2,
    newGame: false,
    seats,
    posts,
    waiting,
    canPost: [],
    canStraddle: null,
    misses: [],
    clears: eligible.filter((x) => x.status !== "active" || x.missed.small || x.missed.big).map((x) => x.seat),
  };
}

/** The positions of a button game's hand: {button, small, big, headsUp}. */
function positions(state, eligible, forced) {
  const seats = eligible.map((x) => x.seat);
  const lastBig = state.bigBlind ?? null;
  const lastSmall = state.smallBlind ?? null;
  if (seats.length === 2) {
    let big;
    let btn;
    if (forced != null) {
      btn = seats.includes(forced) ? forced : nextOf(seats, forced);
      big = seats.find((x) => x !== btn);
    } else if (lastBig != null) {
      big = nextOf(seats, lastBig);
      btn = seats.find((x) => x !== big);
    } else {
      btn = nextOf(seats, state.button ?? 0);
      big = seats.find((x) => x !== btn);
    }
    return { button: btn, small: btn, big, headsUp: true, dead: lastBig != null && forced == null };
  }
  if (forced != null || lastBig == null || lastSmall == null) {
    const btn = forced ?? nextOf(seats, state.button ?? 0);
    const small = nextOf(seats, btn);
    const big = nextOf(seats, small);
    return { button: btn, small, big, headsUp: false, dead: false };
  }
  const big = nextOf(seats, lastBig);
  const small = lastBig;
  let btn = lastSmall;
  if (!between(btn, big, small)) btn = previousSeat(small);
  return { button: btn, small, big, headsUp: false, dead: true };
}

function owes(x, tournament) {
  if (tournament) return false;
  return x.status === "new" || x.missed.small || x.missed.big;
}

function planButton(state, eligible, ctx, forgive = false) {
  const { structure: st, tournament, isHere, post } = ctx;
  const pos = positions(state, eligible, ctx.button);
  const waiting = [...ctx.waiting];
  const seats = [];
  const posts = [];
  const canPost = [];
  const clears = [];
  const debt = (x) => !forgive && !pos.headsUp && owes(x, tournament);
  const order = [...eligible].sort(
    (a, b) => distance(pos.big, a.seat) - distance(pos.big, b.seat),
  );
  for (const x of order) {
    const seat = x.seat;
    const gap = between(seat, pos.button, pos.small) && seat !== pos.small;
    if (seat === pos.big || seat === pos.small) {
      if (seat === pos.small && debt(x)) {
        waiting.push({ seat, reason: "between_blinds_and_button" });
        continue;
      }
    } else if (seat === pos.button || gap) {
      if (debt(x) || (tournament && gap && x.status === "new")) {
        waiting.push({ seat, reason: "between_blinds_and_button" });
        continue;
      }
    } else if (debt(x)) {
      canPost.push(seat);
      if (!post.has(seat)) {
        waiting.push({ seat, reason: x.status === "new" ? "new_player" : "missed_blinds" });
        continue;
      }
    }
    seats.push(dealtRow(x, isHere));
    if (owes(x, tournament) || x.status !== "active") clears.push(seat);
  }
  if (seats.length < 2) {
    if (forgive) {
      refuse("not_enough_players", "A hand needs two players with chips at the table.", {
        allowed: { min: 2 },
      });
    }
    // RR Buttons and blinds 5: a game starting again deals in everyone present.
    return planButton({ ...state, bigBlind: null, smallBlind: null }, eligible, ctx, true);
  }
  seats.sort((a, b) => a.seat - b.seat);
  const dealt = new Map(seats.map((x) => [x.seat, x]));
  const left = new Map(seats.map((x) => [x.seat, x.stack]));
  const pay = (seat, kind, amount, live) => {
    const paid = Math.min(amount, left.get(seat));
    if (paid <= 0) return;
    left.set(seat, left.get(seat) - paid);
    posts.push({ seat, kind, amount: paid, live: live ? paid : 0, dead: live ? 0 : paid });
  };
  if (st.ante > 0 && !st.big_blind_ante) {
    for (const x of seats) pay(x.seat, "ante", st.ante, false);
  }
  if (dealt.has(pos.small)) pay(pos.small, "small_blind", st.small_blind, true);
  pay(pos.big, "big_blind", st.big_blind, true);
  if (st.ante > 0 && st.big_blind_ante) pay(pos.big, "big_blind_ante", st.ante, false);
  const byseat = new Map(eligible.map((x) => [x.seat, x]));
  for (const seat of canPost) {
    if (!dealt.has(seat)) continue;
    const x = byseat.get(seat);
    if (x.status === "new") {
      pay(seat, "new_player_blind", st.big_blind, true);
    } else {
      if (x.missed.big) pay(seat, "missed_big_blind", st.big_blind, true);
      if (x.missed.small) pay(seat, "missed_small_blind", st.small_blind, false);
    }
  }
  // One who chose to post but had nothing left after his ante still owes.
  const owing = canPost.filter(
    (seat) => dealt.has(seat) && !posts.some((p) => p.seat === seat && p.kind !== "ante"),
  );
  const cleared = clears.filter((seat) => !owing.includes(seat));
  // Who missed a blind (FI "Maksamatta jääneet blindit"): players of the game the big
  // blind passed by, and one who is not there on the small-blind seat.
  const misses = [];
  if (!tournament && pos.dead && !forgive) {
    const out = ctx.seated.filter(
      (x) => x.status === "active" && !eligible.some((e) => e.seat === x.seat),
    );
    for (const x of out) {
      if (between(x.seat, state.bigBlind, pos.big)) misses.push({ seat: x.seat, blind: "big" });
      if (x.seat === pos.small && !pos.headsUp) misses.push({ seat: x.seat, blind: "small" });
    }
  }
  // The straddle (HS11): the first seat dealt in left of the big blind.
  let canStraddle = null;
  if (st.betting !== "limit" && !pos.headsUp && seats.length >= 3) {
    const utg = [...dealt.keys()]
      .filter((s) => s !== pos.big)
      .sort((a, b) => distance(pos.big, a) - distance(pos.big, b))[0];
    const posting = posts.some((p) => p.seat === utg && p.kind !== "ante");
    if (utg !== undefined && !posting && left.get(utg) >= st.straddle) canStraddle = utg;
  }
  return {
    game: ctx.game,
    structure: st,
    handNo: ctx.handNo,
    button: pos.button,
    smallBlind: pos.small,
    bigBlind: pos.big,
    straddle: null,
    headsUp: pos.headsUp,
    newGame: forgive,
    seats,
    posts,
    waiting: waiting.sort((a, b) => a.seat - b.seat),
    canPost: canPost.sort((a, b) => a - b),
    canStraddle,
    misses,
    clears: cleared.sort((a, b) => a - b),
  };
}

// -- after the hand ------------------------------------------------------------------

/**
 * The table after a hand: the button and blind positions of ``plan`` are the last
 * hand's, missed blinds are remembered, posted debts cleared, stacks set from the
 * settlement (``settlement.seats[].final_stack``) when it is given.
 */
export function afterHand(state, plan, record = null, settlement = null) {
  const next = clone(state);
  next.button = plan.button;
  next.smallBlind = plan.smallBlind;
  next.bigBlind = plan.bigBlind;
  next.lastHandNo = record?.hand_no ?? plan.handNo ?? next.lastHandNo;
  const rows = new Map(next.seats.map((x) => [x.seat, x]));
  const players = new Map(plan.seats.map((x) => [x.seat, x.player]));
  for (const seat of plan.clears || []) {
    const row = rows.get(seat);
    if (row && row.player === players.get(seat)) {
      row.status = "active";
      row.missed = { small: false, big: false };
    }
  }
  for (const { seat, blind } of plan.misses || []) {
    const row = rows.get(seat);
    if (row) row.missed[blind] = true;
  }
  if (settlement) {
    for (const s of settlement.seats || []) {
      const row = rows.get(s.seat);
      if (row && (s.player == null || s.player === row.player) && Number.isSafeInteger(s.final_stack)) {
        row.stack = s.final_stack;
      }
    }
  }
  return next;
}
