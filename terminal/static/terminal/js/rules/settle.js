// Settle a hand at the table as the server will book it: returns, pots, rake, drop,
// winners, odd chips and final stacks (API.md "Settlement"), by the rules of
// RULES.md RK1-RK5, JD1-JD3 and HS2-HS11, exactly as cardroom.domain.settlement does.
//
// ``settle(record, policy)`` takes the hand record and the table's policy as decoded
// JSON and returns the settlement as plain JSON values; a record the server would
// refuse throws SettleError with the server's code and rule. For every hand:
//
//     sum(put_in) == sum(returned) + sum(won) + rake + jackpot_drop
//
// tests/unit/terminal/test_settle_js.py compares it with the Python engine. What
// JavaScript can't see the same: a JSON number written with a fraction or an
// exponent that is whole (2.0, 1e3) is a whole number here (Python refuses it as
// none), and a whole number beyond 2**53 is refused here as not whole (Python would
// take it); neither comes from a terminal that builds its records in JavaScript.

import { CARD_NAMES, CARD_IDS } from "./cards.js";
import { TEXTS, refuse } from "./errors.js";
import { gameOf, pastInitialDeal } from "./games.js";
import { equalSplit, floorDiv, percentChips, unitsBefore } from "./money.js";
import { MAX_SEATS, parseHand, parsePolicy } from "./record.js";

export { SettleError } from "./errors.js";
export { parseHand, parsePolicy } from "./record.js";

/**
 * Return the settlement of a hand record under a policy (API.md), both decoded JSON.
 *
 * 1. The live bet nobody called goes back (RK5); dead money never does (HS2).
 * 2. Pots form by all-in levels of the live money, folded and mucked money where it
 *    reached; dead money joins the main pot, or the pots its amount reaches (HS2).
 * 3. Each pot pays rake (RK1-RK3, RK7) unless the hand never went past the initial
 *    deal (RK4); the main pot then pays the jackpot drop (JD1-JD3).
 * 4. Each pot goes to the best hand among its eligible seats, cards speak, or to its
 *    one eligible seat (HS3); a pot run more than once is split into equal parts,
 *    one per run, odd chips to the first runs (HS10); hi-lo pots are halved (HS4);
 *    ties split to the smallest chip with odd chips in HS5's order.
 * 5. ``awarded`` pushes that differ from the rules are a ``mispaid_pot`` exception (HS7).
 *
 * Throws SettleError as the server refuses the record, and ``no_contender``,
 * ``incomplete_showdown``, ``showdown_without_cards`` (HS3).
 */
export function settle(record, policy) {
  const hand = parseHand(record);
  const rules = parsePolicy(policy);
  const seats = [...hand.seats].sort((a, b) => a.seat - b.seat);
  const game = hand.game;
  const { pots, back, shown, participants } = formPots(seats);
  const runs = hand.boards.length ? hand.boards : [hand.board];
  const final = hand.streets === game.streets;
  const [highs, lows] = final ? rank(game, shown, runs) : [[new Map()], [new Map()]];
  // Each pot's eligible seats are among the previous pot's, so the main pot's are
  // everyone who contests any pot; each of them needs a ranked hand.
  if (pots.length && pots[0].eligible.length > 1) {
    const contenders = pots[0].eligible;
    for (const seat of contenders) {
      if (!highs[0].has(seat)) refuseShowdown(hand, contenders, final);
    }
  }
  const [rakes, drop] = rakeAndDrop(hand, rules, pots, participants);
  const won = new Map();
  const settled = award(hand, rules.chip, pots, rakes, drop, highs, lows, won);
  const settlement = {
    table: hand.table,
    hand_no: hand.handNo,
    participants,
    returned: back === null ? [] : [{ seat: back[0], amount: back[1] }],
    pots: settled,
    rake: rakes.reduce((a, b) => a + b, 0),
    jackpot_drop: drop,
    seats: seatResults(game, seats, back, won, highs[0], lows[0]),
    exceptions: hand.awarded !== null ? mispaid(hand, seats, won) : [],
  };
  if (runs.length > 1) settlement.runs = describeRuns(game, runs, highs, lows);
  return settlement;
}

// -- pots (HS2, RK5) ------------------------------------------------------------------

/** Return ``[seat, amount]`` of the live bet nobody called, or null (RK5). */
export function uncalledBet(putIns) {
  if (putIns.length < 2) return null;
  const ranked = [...putIns].sort((a, b) => a[1] - b[1]);
  const [seat, top] = ranked[ranked.length - 1];
  const second = ranked[ranked.length - 2][1];
  return top > second ? [seat, top - second] : null;
}

function pot(amount, eligible) {
  return { amount, eligible };
}

function byNumber(a, b) {
  return a - b;
}

/**
 * Return the pots in the order they formed, main pot first (HS2), from
 * ``[seat, amount, out]`` contributions after RK5's return: one pot a level of the
 * amounts of the seats still in; folded money above the top level is dead money in
 * the top pot.
 */
export function buildPots(contributions) {
  const levels = [...new Set(contributions.filter(([, a, out]) => a > 0 && !out).map(([, a]) => a))]
    .sort(byNumber);
  const pots = [];
  let below = 0;
  const top = levels.length ? levels[levels.length - 1] : 0;
  for (const level of levels) {
    let amount = 0;
    const eligible = [];
    for (const [seat, a, out] of contributions) {
      if (a > below) {
        if (a >= level) {
          if (!out) eligible.push(seat);
          amount += (level === top ? a : level) - below;
        } else {
          amount += a - below;
        }
      }
    }
    pots.push(pot(amount, eligible.sort(byNumber)));
    below = level;
  }
  return pots;
}

function sameSeats(a, b) {
  return a.length === b.length && a.every((seat, i) => seat === b[i]);
}

/**
 * Return the pots with every seat's dead money in them (HS2): antes, dead blinds
 * and posts go into the main pot; a seat still in whose only money is dead contests
 * the dead money up to its own amount from each seat, in pots of their own first.
 * ``bettor``: the seat whose bet came back uncalled. Pots with the same eligible
 * seats merge into one.
 */
export function addDeadMoney(pots, dead, live, bettor) {
  if (!dead.some(([, d]) => d)) return pots;
  const withLive = new Set(live.filter(([, a, out]) => a && !out).map(([seat]) => seat));
  if (bettor !== null && !live.some(([seat, , out]) => seat === bettor && out)) withLive.add(bettor);
  const deadOnly = new Set(
    dead.filter(([seat, d, out]) => d && !out && !withLive.has(seat)).map(([seat]) => seat),
  );
  const levels = [...new Set(dead.filter(([seat]) => deadOnly.has(seat)).map(([, d]) => d))].sort(byNumber);
  const front = [];
  let below = 0;
  for (const level of levels) {
    let amount = 0;
    for (const [, d] of dead) amount += Math.min(d, level) - Math.min(d, below);
    const eligible = new Set(withLive);
    for (const [seat, d] of dead) if (deadOnly.has(seat) && d >= level) eligible.add(seat);
    front.push(pot(amount, [...eligible].sort(byNumber)));
    below = level;
  }
  let rest = 0;
  for (const [, d] of dead) rest += d - Math.min(d, below);
  const liveTotal = () => live.reduce((sum, [, a]) => sum + a, 0);
  if (pots.length) {
    pots = [pot(pots[0].amount + rest, pots[0].eligible), ...pots.slice(1)];
  } else if (withLive.size) {
    // Everyone folded to the bettor: the dead money is his pot.
    rest += liveTotal();
    if (rest) front.push(pot(rest, [...withLive].sort(byNumber)));
  } else if (front.length) {
    // No seat still in has a live bet: folded live money is dead money too.
    rest += liveTotal();
    const last = front.pop();
    front.push(pot(last.amount + rest, last.eligible));
  }
  const merged = [];
  for (const p of front.concat(pots)) {
    const previous = merged[merged.length - 1];
    if (previous && sameSeats(previous.eligible, p.eligible)) {
      merged[merged.length - 1] = pot(previous.amount + p.amount, p.eligible);
    } else {
      merged.push(p);
    }
  }
  return merged;
}

/** Return the pots, RK5's return, the seats that show and the participants (JD1). */
function formPots(seats) {
  const back = uncalledBet(seats.map((s) => [s.seat, s.putIn - s.dead]));
  const contributions = seats.map((s) => {
    const live = s.putIn - s.dead;
    return [s.seat, back !== null && s.seat === back[0] ? live - back[1] : live, s.folded || s.mucked];
  });
  const pots = addDeadMoney(
    buildPots(contributions),
    seats.map((s) => [s.seat, s.dead, s.folded || s.mucked]),
    contributions,
    back !== null ? back[0] : null,
  );
  if (!pots.length && (contributions.some(([, a]) => a) || seats.some((s) => s.dead))) {
    throw refuse("no_contender", "chips", { rule: "HS3" });
  }
  const shown = seats
    .filter((s) => s.cards !== null && !s.folded && !s.mucked)
    .map((s) => [s.seat, s.cards]);
  const participants = seats.filter((s) => s.present).length;
  return { pots, back, shown, participants };
}

// -- showdown (HS3, HS4, HS9) --------------------------------------------------------------

/** Return each run's keys of the seats that show, high and low, as Maps by seat. */
function rank(game, shown, runs) {
  const highs = [];
  const lows = [];
  for (const board of runs) {
    const high = new Map();
    const low = new Map();
    for (const [seat, cards] of shown) {
      high.set(seat, bestHigh(game, cards, board));
      if (game.low !== null) {
        const key = game.low.best(cards, board);
        if (key !== null) low.set(seat, key);
      }
    }
    highs.push(high);
    lows.push(low);
  }
  return [highs, lows];
}

function bestHigh(game, cards, board) {
  if (game.code === "SOKO" && cards.length + board.length !== 5) {
    throw refuse("wrong_card_count", "soko", {
      rule: "HS9", allowed: { cards: 5 }, count: cards.length + board.length,
    });
  }
  return game.high.best(cards, board);
}

function seatList(seats) {
  return [...seats].sort(byNumber).join(", ");
}

function refuseShowdown(hand, contenders, final) {
  const game = hand.game;
  if (!final) {
    throw refuse("incomplete_showdown", null, {
      rule: "HS3", allowed: { streets: game.streets }, seats: seatList(contenders),
      game: game.code, streets: hand.streets, last: game.streets,
    });
  }
  const blind = hand.seats
    .filter((s) => (s.cards === null || !s.cards.length) && contenders.includes(s.seat))
    .map((s) => s.seat)
    .sort(byNumber);
  throw refuse("showdown_without_cards", null, {
    rule: "HS3", allowed: { seats: blind }, seats: seatList(blind),
  });
}

// -- rake and drop (RK1-RK4, RK7, JD1-JD3) -------------------------------------------------

/** Return how many rake units a hand with ``total`` in its pots pays (RK1, RK7). */
export function rakeUnits(total, rake, chip, dealtIn) {
  if (rake.unit <= 0 || total < rake.minPot) return 0;
  let units = rake.percent !== null ? percentChips(total, rake.percent, chip) : floorDiv(total, rake.step);
  let cap = rake.cap;
  for (const [minPlayers, playersCap] of rake.capsByPlayers) {
    if (dealtIn < minPlayers) break;
    cap = playersCap;
  }
  if (cap !== null) units = Math.min(units, floorDiv(cap, rake.unit));
  return units;
}

/**
 * Return the rake each pot pays, pots in formation order (RK1-RK3): unit k is taken
 * from the pot that holds the offset k * step; what a pot can't cover is taken from
 * the next pots (RK3).
 */
export function rakeByPot(amounts, rake, chip, dealtIn) {
  const units = rakeUnits(amounts.reduce((a, b) => a + b, 0), rake, chip, dealtIn);
  if (!units) return amounts.map(() => 0);
  const taken = [];
  let start = 0;
  let short = 0;
  for (const amount of amounts) {
    const end = start + amount;
    const first = Math.min(units, unitsBefore(start, rake));
    const after = Math.min(units, unitsBefore(end, rake));
    const owed = (after - first) * rake.unit + short;
    const paid = owed < amount ? owed : amount;
    short = owed - paid;
    taken.push(paid);
    start = end;
  }
  return taken;
}

function rakeAndDrop(hand, rules, pots, participants) {
  const past = pastInitialDeal(hand.streets);
  if (!pots.length || !past) return [pots.map(() => 0), 0];
  const amounts = pots.map((p) => p.amount);
  const rakes = rakeByPot(amounts, rules.rake, rules.chip, hand.seats.length);
  const drop = rules.drop;
  let dropped = 0;
  if (drop !== null) {
    const total = drop.minPot ? amounts.reduce((a, b) => a + b, 0) : 0;
    if (participants >= drop.minParticipants && total >= drop.minPot) {
      dropped = Math.max(0, Math.min(drop.amount, pots[0].amount - rakes[0]));
    }
  }
  return [rakes, dropped];
}

// -- winners (HS3-HS5, HS10) ----------------------------------------------------------------

function shares(pairs) {
  return [...pairs].sort((a, b) => a[0] - b[0]).map(([seat, amount]) => ({ seat, amount }));
}

function addTo(map, seat, amount) {
  map.set(seat, (map.get(seat) || 0) + amount);
}

function award(hand, chip, pots, rakes, drop, highs, lows, won) {
  const hiLo = hand.game.low !== null;
  const several = highs.length > 1;
  return pots.map((p, i) => {
    const potDrop = i === 0 ? drop : 0;
    const net = p.amount - rakes[i] - potDrop;
    let high;
    let low;
    let potWon;
    let runs = null;
    if (several) {
      [high, low, potWon, runs] = awardRuns(net, p.eligible, highs, lows, hand, chip);
    } else {
      [high, low] = share(net, p.eligible, highs[0], lows[0], hand, chip);
      if (low.length) {
        const total = new Map();
        for (const [seat, amount] of high.concat(low)) addTo(total, seat, amount);
        potWon = [...total];
      } else {
        potWon = high;
      }
    }
    const winners = shares(potWon);
    for (const { seat, amount } of winners) addTo(won, seat, amount);
    const settled = {
      amount: p.amount, eligible: p.eligible, rake: rakes[i], jackpot_drop: potDrop, winners,
    };
    if (hiLo) {
      settled.high = shares(high);
      settled.low = shares(low);
    }
    if (runs !== null) settled.runs = runs;
    return settled;
  });
}

function awardRuns(net, eligible, highs, lows, hand, chip) {
  const highAll = new Map();
  const lowAll = new Map();
  const potWon = new Map();
  const runs = [];
  equalSplit(net, highs.length, chip).forEach((part, r) => {
    const [high, low] = share(part, eligible, highs[r], lows[r], hand, chip);
    const runWon = new Map();
    for (const [seat, amount] of high) {
      addTo(highAll, seat, amount);
      addTo(runWon, seat, amount);
    }
    for (const [seat, amount] of low) {
      addTo(lowAll, seat, amount);
      addTo(runWon, seat, amount);
    }
    for (const [seat, amount] of runWon) addTo(potWon, seat, amount);
    runs.push({ run: r + 1, amount: part, winners: shares(runWon) });
  });
  return [[...highAll], [...lowAll], [...potWon], runs];
}

/** Return the seats with the best key among ``eligible`` (all of them on a tie). */
function best(eligible, keys) {
  let winners = [];
  let top = -Infinity;
  for (const seat of eligible) {
    const key = keys.get(seat);
    if (key === undefined) continue;
    if (key > top) {
      winners = [seat];
      top = key;
    } else if (key === top) {
      winners.push(seat);
    }
  }
  return winners;
}

/**
 * Return the high and low shares of ``amount`` among ``eligible`` (HS3-HS5): one
 * eligible seat takes it all; in hi-lo the amount is halved to the chip, the odd
 * chip to the high half, and scooped by the high hand when no low qualifies (HS4).
 */
function share(amount, eligible, high, low, hand, chip) {
  if (eligible.length === 1) return [[[eligible[0], amount]], []];
  const game = hand.game;
  const highWinners = best(eligible, high);
  const lowWinners = low.size ? best(eligible, low) : [];
  if (!lowWinners.length) return [split(amount, highWinners, hand, chip, game.oddChip), []];
  const [highHalf, lowHalf] = equalSplit(amount, 2, chip);
  return [
    split(highHalf, highWinners, hand, chip, game.oddChip),
    // HS5: in stud hi-lo the low half's odd chip goes by the lowest card.
    split(lowHalf, lowWinners, hand, chip, game.lowOddChip),
  ];
}

/**
 * Return a seat's place in line for odd chips, first place 0 (HS5): clockwise from
 * the button; in stud by the highest card (rank, then suit ♠ ♥ ♦ ♣), or by the
 * lowest (the ace lowest, ♣ first) in a low game and stud hi-lo's low half.
 */
function oddChipPlace(hand, seat, rule) {
  if (rule === "button") {
    return (((seat.seat - (hand.button || 0) - 1) % MAX_SEATS) + MAX_SEATS) % MAX_SEATS;
  }
  const cards = seat.cards || [];
  if (rule === "high_card") return 51 - Math.max(...cards);
  return Math.min(...cards.map((c) => (((c >> 2) + 1) % 13) * 4 + (c & 3)));
}

/** Split ``amount`` among tied ``winners`` to the chip, odd chips in HS5's order. */
function split(amount, winners, hand, chip, rule) {
  if (winners.length === 1) return [[winners[0], amount]];
  const bySeat = new Map(hand.seats.map((s) => [s.seat, s]));
  const ranked = winners
    .map((w) => [w, oddChipPlace(hand, bySeat.get(w), rule)])
    .sort((a, b) => a[1] - b[1])
    .map(([w]) => w);
  const parts = equalSplit(amount, ranked.length, chip);
  return ranked.map((w, i) => [w, parts[i]]);
}

// -- results ---------------------------------------------------------------------------

function nameOf(game, high, low) {
  const text = game.high.describe(high);
  if (game.low === null) return text;
  return `${text}; ${low !== undefined && low !== null ? game.low.describe(low) : "no low"}`;
}

function seatResults(game, seats, back, won, high, low) {
  const [backSeat, backAmount] = back !== null ? back : [0, 0];
  return seats.map((s) => {
    const returned = s.seat === backSeat ? backAmount : 0;
    const seatWon = won.get(s.seat) || 0;
    const row = {
      seat: s.seat,
      player: s.player,
      stack: s.stack,
      put_in: s.putIn,
      returned,
      won: seatWon,
      final_stack: s.stack - s.putIn + returned + seatWon,
    };
    if (high.has(s.seat)) row.hand = nameOf(game, high.get(s.seat), low.get(s.seat));
    if (s.dead) row.dead = s.dead;
    if (s.mucked) row.mucked = true;
    return row;
  });
}

function describeRuns(game, runs, highs, lows) {
  return runs.map((board, r) => {
    const hands = {};
    for (const [seat, key] of [...highs[r]].sort((a, b) => a[0] - b[0])) {
      hands[String(seat)] = nameOf(game, key, lows[r].get(seat));
    }
    return { run: r + 1, board: board.map((c) => CARD_NAMES[c]), hands };
  });
}

/** Return the ``mispaid_pot`` exception when the pushes differ from the rules (HS7). */
function mispaid(hand, seats, won) {
  const pushed = hand.awarded;
  const differences = seats
    .filter((s) => (pushed.get(s.seat) || 0) !== (won.get(s.seat) || 0))
    .map((s) => ({ seat: s.seat, awarded: pushed.get(s.seat) || 0, due: won.get(s.seat) || 0 }));
  if (!differences.length) return [];
  return [{ code: "mispaid_pot", rule: "HS7", detail: TEXTS.mispaid_pot, seats: differences }];
}

/**
 * Return a hand's name in English as the server names it (``"full house, kings full
 * of aces"``; hi-lo ``"…; low, 8-6-4-2-A"`` or ``"…; no low"``), or null when the
 * cards make no hand of the game yet. ``game`` is a code, ``cards`` and ``board``
 * card names ("Ah").
 */
export function describe(game, cards, board = []) {
  const rules = typeof game === "string" ? gameOf(game) : game;
  if (!rules) return null;
  const ids = (names) => names.map((name) => (typeof name === "number" ? name : CARD_IDS.get(name)));
  const hole = ids(cards);
  const common = ids(board);
  if (hole.includes(undefined) || common.includes(undefined)) return null;
  const enough = rules.selection === "omaha" ? hole.length >= 2 && common.length >= 3 : hole.length + common.length >= 5;
  if (!enough || (rules.code === "SOKO" && hole.length + common.length !== 5)) return null;
  const high = rules.high.best(hole, common);
  const low = rules.low !== null ? rules.low.best(hole, common) : null;
  return nameOf(rules, high, low);
}

