// Random legal play of whole hands and whole table sessions, checking the rules'
// invariants as it goes; the hand records go back to Python, whose parser and
// settlement check them (tests/unit/terminal/test_betting_js.py).
//
// stdin: {"hands": [hand case], "sessions": [session case]}
//   hand case: {seed, game, structure, seats: [{seat, stack}], button, tournament,
//               absent: [seats]}
//   session case: {seed, game, structure, seats: [{seat, stack}], hands, tournament,
//                  maxSeat (players join seats 1 … maxSeat)}
// stdout: {"hands": [{record, violations, steps}], "sessions": [{records, plans,
//   violations}]}
//
// Invariants checked here: every action the options offer is accepted; illegal
// probes (out of turn, a check facing a bet, a raise below the minimum or above the
// pot or the stack, a raise the full-bet rule closes) are refused with their code and
// change nothing; nobody puts in more than his stack; the seat to act is in and has
// chips; a betting round closes only when every seat in with chips has acted and
// matched the bet (seats all in matched what they could); the hand survives JSON and
// undo; and, for sessions, the table's rules (one big blind a hand, never the same
// player's twice running, the dead button, heads-up, posts only by those who owe).
import { readFileSync } from "node:fs";

import { GAMES, Hand, IllegalAction } from "../../../../terminal/static/terminal/js/rules/betting.js";
import {
  afterHand,
  leaveSeat,
  planHand,
  seatPlayer,
  setAway,
  setStack,
  tableState,
} from "../../../../terminal/static/terminal/js/rules/table.js";

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DECK = [];
for (const r of "23456789TJQKA") for (const s of "cdhs") DECK.push(r + s);

function shuffled(rng) {
  const deck = [...DECK];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function pick(rng, weighted) {
  const total = weighted.reduce((a, [w]) => a + w, 0);
  let x = rng() * total;
  for (const [w, v] of weighted) {
    x -= w;
    if (x < 0) return v;
  }
  return weighted.at(-1)[1];
}

function between(rng, lo, hi) {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

/** Play ``hand`` to its end with random legal actions; return the violations. */
function play(hand, rng, violations, tag) {
  const info = GAMES[hand.game];
  const deck = shuffled(rng);
  const hole = {};
  for (const s of hand.seats) {
    const down = info.stud ? info.seatCards.at(-1) - 4 : info.hole;
    hole[s.seat] = deck.splice(0, down);
  }
  const v = (what) => violations.push(`${tag} hand ${hand.handNo}: ${what}`);
  const live = (s) => s.putIn - s.dead;
  let roundStart = Object.fromEntries(hand.seats.map((s) => [s.seat, 0]));
  let acted = new Set();
  let street = hand.street;
  let steps = 0;
  const newRound = () => {
    roundStart = Object.fromEntries(hand.seats.map((s) => [s.seat, live(s)]));
    acted = new Set();
    street = hand.street;
  };
  while (!hand.over && steps < 400) {
    steps += 1;
    if (hand.street !== street) newRound();
    const need = hand.needs();
    if (need) {
      if (need.kind === "showdown") {
        for (const seat of need.seats) {
          if (hand.over) break;
          const open = hand.needs()?.seats || [];
          if (!open.includes(seat)) continue;
          const inHand = hand.seats.filter((s) => !s.folded && !s.mucked);
          if (inHand.length > 1 && rng() < 0.25) {
            hand.muck(seat);
          } else {
            const s = hand.seats.find((x) => x.seat === seat);
            const cards = info.stud
              ? [...hole[seat].slice(0, info.code === "SOKO" ? 1 : 2), ...s.up, ...(info.code === "SOKO" ? [] : hole[seat].slice(2))]
              : hole[seat];
            hand.show(seat, cards.slice(0, info.stud ? info.seatCards[hand.street - 1] : info.hole));
          }
        }
        continue;
      }
      const rest = info.boardCards.at(-1) - hand.board.length;
      if (hand.canRunTwice && deck.length >= 2 * rest && rng() < 0.3) hand.runTwice();
      const n = hand.needs();
      if (n.kind === "board") hand.deal(deck.splice(0, n.count));
      else hand.deal(Object.fromEntries(n.seats.map((seat) => [seat, deck.shift()])));
      continue;
    }
    const seat = hand.toAct;
    const seats = hand.seats;
    const me = seats.find((s) => s.seat === seat);
    if (!me || me.folded || me.allIn) v(`seat ${seat} to act is out or all in`);
    const o = hand.options();
    probe(hand, o, me, rng, v);
    const total = me.bet + me.behind;
    const choices = [];
    if (o.bringIn) choices.push([3, { type: "bring_in" }]);
    if (o.check) choices.push([4, { type: "check" }]);
    if (o.call) choices.push([4, { type: "call" }]);
    if (o.fold) choices.push([o.check ? 0.2 : 2, { type: "fold" }]);
    for (const kind of ["bet", "raise"]) {
      const r = o[kind];
      if (!r) continue;
      const sizes = r.sizes || [r.min, r.max, between(rng, r.min, r.max)];
      for (const to of sizes) choices.push([1, { type: kind, to }]);
    }
    if (o.allIn) choices.push([0.6, { type: "allin" }]);
    if (!choices.length) {
      v(`seat ${seat} has no option`);
      break;
    }
    const action = pick(rng, choices);
    try {
      hand.act(seat, action);
    } catch (error) {
      v(`legal ${JSON.stringify(action)} by seat ${seat} refused: ${error.code} ${error.message}`);
      break;
    }
    acted.add(seat);
    for (const s of hand.seats) {
      if (s.putIn > s.stack) v(`seat ${s.seat} put in ${s.putIn} of ${s.stack}`);
    }
    if (total < 0) v("negative total");
    const after = hand.seats;
    const inHand = after.filter((s) => !s.folded);
    const closed = hand.street !== street || hand.toAct === null;
    if (closed && inHand.length > 1) {
      const bets = Object.fromEntries(after.map((s) => [s.seat, live(s) - roundStart[s.seat]]));
      const able = inHand.filter((s) => !s.allIn);
      if (able.length) {
        const top = Math.max(...able.map((s) => bets[s.seat]));
        for (const s of able) {
          if (bets[s.seat] !== top) v(`round closed with seat ${s.seat} at ${bets[s.seat]} of ${top}`);
        }
        for (const s of inHand) {
          if (s.allIn && bets[s.seat] > top) v(`round closed below all-in seat ${s.seat}`);
        }
        if (able.length >= 2) {
          for (const s of able) {
            if (!acted.has(s.seat)) v(`round closed before seat ${s.seat} acted`);
          }
        }
      }
    }
  }
  if (!hand.over) v(`not over after ${steps} steps`);
  return steps;
}

/** An illegal action must be refused with its code and leave the hand as it was. */
function probe(hand, o, me, rng, v) {
  if (rng() > 0.35) return;
  const before = JSON.stringify(hand.toJSON());
  const total = me.bet + me.behind;
  const tries = [];
  const other = hand.seats.find((s) => s.seat !== me.seat && !s.folded);
  if (other) tries.push([{ seat: other.seat, type: "check" }, ["not_your_turn"]]);
  if (!o.check && !o.bringIn) tries.push([{ seat: me.seat, type: "check" }, ["cannot_check"]]);
  tries.push([{ seat: me.seat, type: "raise", to: total + 1 }, ["above_stack"]]);
  const r = o.raise || o.bet;
  const cover = Math.max(
    0,
    ...hand.seats.filter((s) => s.seat !== me.seat && !s.folded).map((s) => s.bet + s.behind),
  );
  if (r && r.min - 1 > o.currentBet && r.min - 1 < total && r.min - 1 < cover) {
    tries.push([{ seat: me.seat, type: "raise", to: r.min - 1 }, ["below_minimum", "not_limit_size"]]);
  }
  if (r && o.potLimitMax !== null && o.potLimitMax + 1 <= total) {
    tries.push([{ seat: me.seat, type: "raise", to: o.potLimitMax + 1 }, ["above_maximum"]]);
  }
  if (!o.raise && !o.bet && !o.bringIn && !(o.allIn && o.allIn.kind !== "call") && total > o.currentBet + 1 && o.call) {
    tries.push([
      { seat: me.seat, type: "raise", to: total },
      ["not_reopened", "cap_reached", "no_opponent", "above_maximum", "not_limit_size"],
    ]);
  }
  if (o.bringIn) tries.push([{ seat: me.seat, type: "fold" }, ["bring_in_required"]]);
  const [act, codes] = tries[Math.floor(rng() * tries.length)];
  try {
    hand.act(act.seat, { type: act.type, to: act.to });
    v(`illegal ${JSON.stringify(act)} accepted (expected ${codes})`);
  } catch (error) {
    if (!(error instanceof IllegalAction)) v(`crash on ${JSON.stringify(act)}: ${error.stack}`);
    else if (!codes.includes(error.code)) {
      v(`illegal ${JSON.stringify(act)} refused as ${error.code}, expected ${codes}`);
    }
    if (JSON.stringify(hand.toJSON()) !== before) v(`refused ${JSON.stringify(act)} changed the hand`);
  }
}

function checkRecord(hand, record, v) {
  const again = Hand.fromJSON(JSON.parse(JSON.stringify(hand.toJSON()))).record({
    endedAt: record.ended_at,
  });
  if (JSON.stringify(again) !== JSON.stringify(record)) v("the hand changed through JSON");
  const events = hand.toJSON().events;
  if (events.length) {
    const copy = Hand.fromJSON(hand.toJSON());
    const last = events.at(-1);
    copy.undo();
    copy._apply(last);
    const redone = copy.record({ endedAt: record.ended_at });
    if (JSON.stringify(redone) !== JSON.stringify(record)) v("undo and redo changed the hand");
  }
}

function runHand(c) {
  const rng = mulberry32(c.seed);
  const violations = [];
  const state = tableState({
    seats: c.seats.map((s) => ({ seat: s.seat, player: `P-${s.seat}`, stack: s.stack })),
    button: c.button,
    lastHandNo: 0,
    tournament: Boolean(c.tournament),
  });
  const present = c.seats.map((s) => s.seat).filter((x) => !(c.absent || []).includes(x));
  let plan = planHand(state, { game: c.game, structure: c.structure, present });
  if (plan.canStraddle && rng() < 0.3) {
    plan = planHand(state, { game: c.game, structure: c.structure, present, straddle: plan.canStraddle });
  }
  const hand = new Hand({ table: "T01", plan, startedAt: "2026-11-29T21:00:00+02:00" });
  const steps = play(hand, rng, violations, "case");
  let record = null;
  if (hand.over) {
    record = hand.record({ endedAt: "2026-11-29T21:02:00+02:00" });
    checkRecord(hand, record, (w) => violations.push(w));
  }
  return { record, violations, steps };
}

/** A crude settlement for the session's next stacks: the first hand in wins it all. */
function crudeSettlement(hand) {
  const inHand = hand.seats.filter((s) => !s.folded && !s.mucked);
  const winner = hand.over && inHand.length > 1 ? hand.showOrder()[0] : inHand[0].seat;
  return {
    seats: hand.seats.map((s) => ({
      seat: s.seat,
      player: s.player,
      final_stack: s.stack - s.putIn + (s.seat === winner ? hand.pot : 0),
    })),
  };
}

function runSession(c) {
  const rng = mulberry32(c.seed);
  const violations = [];
  const info = GAMES[c.game];
  let state = tableState({
    seats: c.seats.map((s) => ({ seat: s.seat, player: `P-${s.seat}-0`, stack: s.stack })),
    button: c.seats[0].seat,
    lastHandNo: 0,
    tournament: Boolean(c.tournament),
  });
  const records = [];
  const plans = [];
  let previous = null;
  let joined = 0;
  for (let h = 1; h <= c.hands; h++) {
    // Between hands: players step away and back (BI9), leave (BI5), join, top up.
    for (const row of state.seats) {
      if (rng() < 0.12) state = setAway(state, row.seat, !row.away);
      else if (row.stack === 0 && rng() < 0.5) state = setStack(state, row.seat, between(rng, 1, 4) * 1000);
    }
    if (state.seats.length > 2 && rng() < 0.08) {
      state = leaveSeat(state, state.seats[Math.floor(rng() * state.seats.length)].seat);
    }
    const empty = [];
    for (let s = 1; s <= (c.maxSeat || 9); s++) if (!state.seats.some((x) => x.seat === s)) empty.push(s);
    if (empty.length && rng() < 0.12) {
      joined += 1;
      const seat = empty[Math.floor(rng() * empty.length)];
      state = seatPlayer(state, { seat, player: `P-${seat}-${joined}`, stack: between(rng, 1, 6) * 1000 });
    }
    let ready = state.seats.filter((x) => x.stack > 0 && (!x.away || state.tournament));
    for (const row of state.seats) {
      if (ready.length >= 2) break;
      if (row.away) state = setAway(state, row.seat, false);
      if (row.stack === 0) state = setStack(state, row.seat, 2000);
      ready = state.seats.filter((x) => x.stack > 0 && (!x.away || state.tournament));
    }
    if (ready.length < 2) {
      const seat = empty.find((s) => !state.seats.some((x) => x.seat === s));
      state = seatPlayer(state, { seat, player: `P-${seat}-x${h}`, stack: 3000 });
    }
    const options = { game: c.game, structure: c.structure };
    if (state.tournament) options.present = state.seats.filter((x) => rng() < 0.85).map((x) => x.seat);
    let plan;
    try {
      plan = planHand(state, options);
      const post = plan.canPost.filter(() => rng() < 0.5);
      plan = planHand(state, { ...options, post });
      if (plan.canStraddle && rng() < 0.2) {
        plan = planHand(state, { ...options, post, straddle: plan.canStraddle });
      }
    } catch (error) {
      if (error instanceof IllegalAction && error.code === "not_enough_players") continue;
      violations.push(`session hand ${h}: planHand crashed: ${error.stack || error.code}`);
      break;
    }
    const count = violations.length;
    checkPlan(state, plan, previous, info, (w) => violations.push(`session hand ${h}: ${w}`));
    if (c.debug && violations.length > count) violations.push(JSON.stringify({ state, plan }));
    const hand = new Hand({ table: "T01", handNo: h, plan, startedAt: "2026-11-29T21:00:00+02:00" });
    play(hand, rng, violations, `session ${c.seed}`);
    if (!hand.over) break;
    const record = hand.record({ endedAt: "2026-11-29T21:02:00+02:00" });
    records.push(record);
    plans.push(plan);
    const next = afterHand(state, plan, record, crudeSettlement(hand));
    for (const m of plan.misses) {
      const row = next.seats.find((x) => x.seat === m.seat);
      const was = state.seats.find((x) => x.seat === m.seat);
      if (!row.missed[m.blind]) violations.push(`session hand ${h}: miss of seat ${m.seat} not kept`);
      if (was.stack > 0 && !was.away) violations.push(`session hand ${h}: seat ${m.seat} missed a blind while there`);
    }
    previous = plan;
    state = next;
  }
  return { records, plans, violations };
}

function checkPlan(state, plan, previous, info, v) {
  const rows = new Map(state.seats.map((x) => [x.seat, x]));
  const present = new Set(plan.seats.filter((x) => x.present).map((x) => x.seat));
  if (plan.seats.length < 2) v("fewer than two dealt in");
  for (const x of plan.seats) {
    const row = rows.get(x.seat);
    if (!row || row.stack <= 0) v(`seat ${x.seat} dealt in without chips`);
    if (!state.tournament && !x.present) v(`absent seat ${x.seat} dealt in at a cash table`);
  }
  const paid = {};
  for (const p of plan.posts) {
    paid[p.seat] = (paid[p.seat] || 0) + p.amount;
    if (p.live + p.dead !== p.amount) v(`post ${JSON.stringify(p)} does not add up`);
    if (!plan.seats.some((x) => x.seat === p.seat)) v(`seat ${p.seat} posts without being dealt in`);
  }
  for (const [seat, amount] of Object.entries(paid)) {
    if (amount > rows.get(Number(seat)).stack) v(`seat ${seat} posts more than his stack`);
  }
  if (info.stud) {
    if (plan.button !== null) v("a stud hand with a button");
    return;
  }
  const bigs = plan.posts.filter((p) => p.kind === "big_blind");
  const spent = paid[plan.bigBlind] === rows.get(plan.bigBlind)?.stack; // all in on his ante
  if (!(bigs.length === 1 && bigs[0].seat === plan.bigBlind) && !(bigs.length === 0 && spent)) {
    v(`big blinds ${JSON.stringify(bigs)}`);
  }
  if (plan.headsUp) {
    if (plan.button !== plan.smallBlind) v("heads-up: the button is not the small blind");
    const broke = paid[plan.button] === rows.get(plan.button).stack; // all in on his ante
    if (!broke && !plan.posts.some((p) => p.kind === "small_blind" && p.seat === plan.button)) {
      v("heads-up: the button posts no small blind");
    }
  }
  if (previous) {
    const prevBig = previous.seats.find((x) => x.seat === previous.bigBlind);
    const big = plan.seats.find((x) => x.seat === plan.bigBlind);
    const eligible = state.seats.filter((x) => x.stack > 0 && (!x.away || state.tournament));
    if (prevBig && big && prevBig.player === big.player && eligible.length > 1) {
      v(`player ${big.player} posts the big blind twice running`);
    }
    if (!plan.headsUp && !previous.headsUp && !plan.newGame && state.bigBlind !== null) {
      if (plan.smallBlind !== previous.bigBlind) v("dead button: the small blind is not the last big blind's seat");
    }
  }
  for (const x of plan.seats) {
    const row = rows.get(x.seat);
    const owes = !state.tournament && (row.status === "new" || row.missed.small || row.missed.big);
    const posted = plan.posts.some((p) => p.seat === x.seat && p.kind !== "ante" && p.kind !== "straddle");
    const allInOnAnte = paid[x.seat] === row.stack;
    if (owes && !posted && !allInOnAnte && !plan.headsUp && !plan.newGame && x.seat !== plan.bigBlind) {
      v(`seat ${x.seat} owes a blind and is dealt in without posting`);
    }
    if (owes && (x.seat === plan.button || x.seat === plan.smallBlind) && !plan.headsUp && !plan.newGame) {
      v(`seat ${x.seat} owes a blind and is dealt in on the button or small blind`);
    }
  }
  for (const p of plan.posts) {
    const row = rows.get(p.seat);
    if (p.kind === "new_player_blind" && row.status !== "new") v(`seat ${p.seat} posts a new player's blind`);
    if (p.kind === "missed_big_blind" && !row.missed.big) v(`seat ${p.seat} posts a big blind it didn't miss`);
    if (p.kind === "missed_small_blind" && (!row.missed.small || p.live)) {
      v(`seat ${p.seat} posts a small blind it didn't miss, or live`);
    }
  }
  if (present.size === 0) v("nobody present");
}

const input = JSON.parse(readFileSync(0, "utf8"));
function guarded(run) {
  return (c) => {
    try {
      return run(c);
    } catch (error) {
      return { record: null, records: [], plans: [], violations: [`crash: ${error.stack}`] };
    }
  };
}

process.stdout.write(
  JSON.stringify({
    hands: (input.hands || []).map(guarded(runHand)),
    sessions: (input.sessions || []).map(guarded(runSession)),
  }),
);
