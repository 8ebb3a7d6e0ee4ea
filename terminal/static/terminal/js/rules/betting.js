// One hand as the dealer deals it: whose turn, what each seat may do, the cards the
// dealer must enter, the showdown, and the hand record of API.md "Hand record".
//
// A plain ES module with no imports, run by Chromium and by Node 20 alike. Money is
// integer cents. A Hand keeps its whole story as JSON (the set-up and the events), so
// the app can store it (IndexedDB), restore it (Hand.fromJSON) and undo the last step.
//
// The rules, with their sources (RULES.md; FI = the Finnish room rules; RR = Robert's
// Rules of Poker; TDA = the Poker TDA rules):
// - Action is clockwise. Preflop the first seat left of the big blind acts first (left
//   of the straddle when there is one: the straddle is a live blind and acts last,
//   HS11); later rounds start left of the button. Heads-up the button posts the small
//   blind, acts first preflop and last after the flop (RR Buttons and blinds, TDA).
// - Stud games (STUD, PLSTUD, STUD8, RAZZ, SOKO) have no button: the lowest up-card
//   brings in (ace high; ties by suit, clubs lowest, then diamonds, hearts, spades);
//   in razz and Sökö the highest (razz: king highest, ace lowest; ties: spades highest).
//   The bring-in seat must bring in or complete to a full bet; the bring-in is a live
//   bet (HS11). Later rounds start with the best hand showing (razz: the lowest, pairs
//   bad; Sökö counts its four-card flush and straight above a pair); equal hands: the
//   seat nearest the dealer's left (RR Stud).
// - No limit: a bet is at least the minimum bring-in (the big blind; the small bet in
//   stud), a raise at least the last full bet or raise of the round (RR No limit 2-4;
//   a straddle sets the bring-in, not a raise: the minimum raise is then two straddles).
//   Pot limit: the same minimums, and at most the pot after calling (RR Pot limit).
//   Limit: bets and raises of the fixed size (small bet on the first two rounds, big
//   bet after; in seven-card stud an open pair on fourth street allows the big bet),
//   at most a bet and three raises (structure.cap_raises), unlimited heads-up unless
//   the round was capped with more players in (RR Limit; structure.heads_up_uncapped).
// - FI "Full bet": an all-in short of a full bet or raise does not reopen the betting
//   for a seat that already acted, unless short all-ins add up to a full raise over
//   what he faced (TDA Re-opening the bet); the short raise does not change the
//   minimum raise. In limit games the next seat may complete a short bet to the full
//   size (the full-bet rule, not the half-bet rule).
// - Nobody puts in more than he has (BI3); a short blind or bring-in is all in, and
//   the others still call the full big blind (RR Buttons and blinds 1). A bet or
//   raise that puts every opponent all in may stop at what they can call, short of
//   the full size (the rest would only come back: RK5).
// - The pot goes out to the showdown when at most one seat can still bet; the players
//   all in may agree to run the rest of the board twice (HS10), and their hands may
//   be turned up before the board runs out (TDA: all hands tabled).
// - Showdown order: the last seat to bet or raise on the last round shows first, else
//   the first seat to act on it (TDA). A mucked hand wins nothing (HS3); the last hand
//   in wins without showing.
// - Tournament tables: an absent player's hand is dead (TDA): in stud it is folded at
//   once, in button games when its turn comes (its blinds stay in the pot).
// - Not covered: the community card of a stud hand with more players than the deck
//   can deal seven cards to (the hand record has no place for it).

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

function gameInfo(code, streets, hole, seatCards, boardCards, betting, extra = {}) {
  return Object.freeze({
    code,
    streets,
    hole,
    seatCards: Object.freeze(seatCards),
    boardCards: Object.freeze(boardCards),
    stud: hole === null,
    betting,
    bringIn: null,
    show: null,
    hilo: false,
    ...extra,
  });
}

const BOARD = [0, 3, 4, 5];
const SEVEN = [3, 4, 5, 6, 7];

/** The games of HS9 (API.md game codes) and how each deals and bets. */
export const GAMES = Object.freeze({
  NLHE: gameInfo("NLHE", 4, 2, [2, 2, 2, 2], BOARD, "no_limit"),
  PLHE: gameInfo("PLHE", 4, 2, [2, 2, 2, 2], BOARD, "pot_limit"),
  LHE: gameInfo("LHE", 4, 2, [2, 2, 2, 2], BOARD, "limit"),
  PLO: gameInfo("PLO", 4, 4, [4, 4, 4, 4], BOARD, "pot_limit"),
  PLO5: gameInfo("PLO5", 4, 5, [5, 5, 5, 5], BOARD, "pot_limit"),
  COURCHEVEL: gameInfo("COURCHEVEL", 4, 5, [5, 5, 5, 5], [1, 3, 4, 5], "pot_limit"),
  PLO8: gameInfo("PLO8", 4, 4, [4, 4, 4, 4], BOARD, "pot_limit", { hilo: true }),
  STUD: gameInfo("STUD", 5, null, SEVEN, [0, 0, 0, 0, 0], "limit", {
    bringIn: "low",
    show: "high",
    openPair: true,
  }),
  PLSTUD: gameInfo("PLSTUD", 5, null, SEVEN, [0, 0, 0, 0, 0], "pot_limit", {
    bringIn: "low",
    show: "high",
  }),
  STUD8: gameInfo("STUD8", 5, null, SEVEN, [0, 0, 0, 0, 0], "limit", {
    bringIn: "low",
    show: "high",
    hilo: true,
  }),
  RAZZ: gameInfo("RAZZ", 5, null, SEVEN, [0, 0, 0, 0, 0], "limit", {
    bringIn: "high",
    show: "low",
  }),
  SOKO: gameInfo("SOKO", 4, null, [2, 3, 4, 5], [0, 0, 0, 0], "pot_limit", {
    bringIn: "high",
    show: "soko",
  }),
});

const STREET_NAMES = {
  board: ["preflop", "flop", "turn", "river"],
  stud: ["third", "fourth", "fifth", "sixth", "seventh"],
  soko: ["first", "second", "third", "fourth"],
};

/** A refused action, deal or showdown step: what, by which rule, and what is allowed. */
export class IllegalAction extends Error {
  constructor(code, reason, { rule = null, allowed = null, seat = null } = {}) {
    super(reason);
    this.name = "IllegalAction";
    this.code = code;
    this.rule = rule;
    this.reason = reason;
    this.allowed = allowed;
    this.seat = seat;
  }

  toJSON() {
    return {
      code: this.code,
      rule: this.rule,
      reason: this.reason,
      allowed: this.allowed,
      seat: this.seat,
    };
  }
}

function refuse(code, reason, extra) {
  throw new IllegalAction(code, reason, extra);
}

const KINDS = { NL: "no_limit", PL: "pot_limit", L: "limit" };

function isAmount(n) {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * Return the structure with every default filled in (cents), or throw bad_structure.
 * See the header of table.js for the fields.
 */
export function normalizeStructure(game, structure = {}) {
  const info = GAMES[game];
  if (!info) {
    refuse("unknown_game", `Unknown game ${game}.`, {
      rule: "HS9",
      allowed: { games: Object.keys(GAMES) },
    });
  }
  const s = structure || {};
  const num = (key, fallback) => {
    const v = s[key];
    if (v === undefined || v === null) return fallback;
    if (!isAmount(v)) {
      refuse("bad_structure", `The structure's ${key} must be a whole number of cents.`, {
        allowed: { field: key },
      });
    }
    return v;
  };
  const smallBlind = num("small_blind", 0);
  const bigBlind = num("big_blind", 0);
  const smallBet = num("small_bet", 0) || bigBlind;
  const out = {
    small_blind: smallBlind,
    big_blind: bigBlind,
    ante: num("ante", 0),
    bring_in: info.stud ? num("bring_in", smallBlind) : 0,
    small_bet: smallBet,
    big_bet: num("big_bet", 0) || 2 * smallBet,
    straddle: num("straddle", 0) || 2 * bigBlind,
    big_blind_ante: s.big_blind_ante === true,
    // the server's table state says NL, PL or L (structure.kind)
    betting: s.betting || KINDS[s.kind] || info.betting,
    cap_raises: num("cap_raises", 3),
    heads_up_uncapped: s.heads_up_uncapped !== false,
  };
  if (!["no_limit", "pot_limit", "limit"].includes(out.betting)) {
    refuse("bad_structure", `Unknown betting structure ${out.betting}.`, {
      allowed: { betting: ["no_limit", "pot_limit", "limit"] },
    });
  }
  if (out.small_bet <= 0 || (!info.stud && out.big_blind <= 0)) {
    refuse("bad_structure", "The structure needs a big blind and a small bet above zero.");
  }
  return out;
}

// -- cards ---------------------------------------------------------------------------

function checkCard(card) {
  if (
    typeof card !== "string" ||
    card.length !== 2 ||
    !RANKS.includes(card[0]) ||
    !SUITS.includes(card[1])
  ) {
    refuse("bad_card", `${JSON.stringify(card)} is not a card: rank then suit, like Ah.`, {
      rule: "HS9",
    });
  }
  return card;
}

function rankOf(card, aceLow = false) {
  const r = RANKS.indexOf(card[0]) + 2; // 2 … 14
  return aceLow && r === 14 ? 1 : r;
}

function suitOf(card) {
  return SUITS.indexOf(card[1]); // clubs 0, diamonds 1, hearts 2, spades 3
}

/**
 * The key of the cards a stud seat shows (at most four), for who acts first (RR Stud).
 * Larger is better for "high" and "soko"; for "low" (razz) smaller is better.
 */
export function showingKey(cards, mode) {
  const aceLow = mode === "low";
  const ranks = cards.map((c) => rankOf(c, aceLow));
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]);
  let category = 0; // high card
  if (shape[0] === 4) category = 9;
  else if (shape[0] === 3) category = 5;
  else if (shape[0] === 2 && shape[1] === 2) category = 4;
  else if (shape[0] === 2) category = 1;
  let order = groups.flatMap((g) => Array(g[1]).fill(g[0]));
  if (mode === "soko" && cards.length === 4 && category === 0) {
    // HS9: two pairs > four flush > four straight > one pair; no four straight flush.
    if (new Set(cards.map(suitOf)).size === 1) {
      category = 3;
    } else {
      const sorted = [...ranks].sort((a, b) => b - a);
      if (sorted[0] - sorted[3] === 3) category = 2;
      else if (sorted[0] === 14 && sorted[1] === 4 && sorted[3] === 2) {
        category = 2; // A-2-3-4
        order = [4, 3, 2, 1];
      }
    }
  }
  return [category, ...order];
}

function compareKeys(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

/** The card that brings it in: lowest (ace high) or highest (razz: ace low). */
function bringInCardKey(card, mode) {
  // Higher key = brings it in. "low": the lowest rank, then the lowest suit.
  const r = rankOf(card, mode === "high_razz");
  const suit = suitOf(card);
  if (mode === "low") return (15 - r) * 4 + (3 - suit);
  return r * 4 + suit; // "high" (Sökö) and razz: highest rank, then highest suit
}

// -- the hand ------------------------------------------------------------------------

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

const LIVE_KINDS = new Set([
  "small_blind",
  "big_blind",
  "new_player_blind",
  "missed_big_blind",
  "straddle",
]);
const BIG_KINDS = new Set(["big_blind", "new_player_blind", "missed_big_blind"]);

/** One hand at the table, from its plan (table.js planHand) to its record. */
export class Hand {
  constructor({ table = null, game, structure, handNo, plan, seats, startedAt = null }) {
    plan = plan || {};
    game = game || plan.game;
    const info = GAMES[game];
    if (!info) {
      refuse("unknown_game", `Unknown game ${game}.`, {
        rule: "HS9",
        allowed: { games: Object.keys(GAMES) },
      });
    }
    const st = normalizeStructure(game, structure || plan.structure);
    this._init = clone({
      table,
      game,
      structure: st,
      handNo: handNo ?? plan.handNo ?? null,
      plan,
      seats: seats || null,
      startedAt,
    });
    this._setUp();
  }

  // -- JSON ------------------------------------------------------------------------

  /** The whole hand as JSON: its set-up and every event since. */
  toJSON() {
    return { version: 1, init: clone(this._init), events: clone(this._events) };
  }

  /** A hand restored from toJSON(). */
  static fromJSON(json) {
    const hand = new Hand(json.init);
    for (const event of json.events || []) hand._apply(event);
    return hand;
  }

  /** Take back the last event (action, cards, show or muck). */
  undo() {
    if (!this._events.length) {
      refuse("nothing_to_undo", "Nothing to take back.");
    }
    const events = this._events.slice(0, -1);
    this._setUp();
    for (const event of events) this._apply(event);
    return this;
  }

  _setUp() {
    const init = this._init;
    const info = GAMES[init.game];
    const plan = init.plan;
    const given = new Map((init.seats || []).map((x) => [Number(x.seat), x]));
    const rows = (plan.seats || init.seats || []).map((x) => ({ ...x, ...(given.get(x.seat) || {}) }));
    if (rows.length < 2) {
      refuse("not_enough_players", "A hand needs at least two players dealt in.", {
        allowed: { min: 2 },
      });
    }
    const p = {};
    const order = [];
    for (const row of rows) {
      const seat = Number(row.seat);
      if (!Number.isInteger(seat) || seat < 1 || seat > 12 || p[seat]) {
        refuse("bad_seat", `Seat ${row.seat} can't be dealt in.`, { rule: "HS1" });
      }
      if (!isAmount(row.stack) || row.stack <= 0) {
        refuse("bad_structure", `Seat ${seat} has no chips to play.`, { rule: "BI3", seat });
      }
      order.push(seat);
      p[seat] = {
        seat,
        player: row.player,
        stack: row.stack,
        present: row.present !== false,
        putIn: 0,
        dead: 0,
        straddle: 0,
        bet: 0,
        folded: false,
        mucked: false,
        shown: null,
        up: [],
        matched: null,
        matchedFulls: 0,
      };
    }
    order.sort((a, b) => a - b);
    this._info = info;
    this._st = init.structure;
    this._events = [];
    const s = {
      street: 1,
      phase: "bet",
      toAct: null,
      order,
      p,
      board: [],
      runs: null,
      button: info.stud ? null : plan.button ?? null,
      bigBlind: plan.bigBlind ?? null,
      straddleSeat: plan.straddle ?? null,
      cur: null,
      lastRoundAggressor: null,
      reachedShowdown: false,
    };
    this._s = s;
    this._newRound();
    // The posts of the plan: antes and dead blinds are dead money (HS2), blinds and the
    // straddle live bets (HS11). The plan already caps them at each stack.
    let nominal = 0;
    for (const post of plan.posts || []) {
      const seat = p[post.seat];
      if (!seat) continue;
      const live = post.live ?? (LIVE_KINDS.has(post.kind) ? post.amount : 0);
      const dead = post.dead ?? post.amount - live;
      const pay = Math.min(live + dead, seat.stack - seat.putIn);
      const deadPaid = Math.min(dead, pay);
      seat.dead += deadPaid;
      seat.putIn += pay;
      seat.bet += pay - deadPaid;
      if (post.kind === "straddle") {
        seat.straddle += pay - deadPaid;
        nominal = Math.max(nominal, this._st.straddle);
      } else if (BIG_KINDS.has(post.kind)) {
        nominal = Math.max(nominal, this._st.big_blind);
      }
    }
    // An absent player's hand is dead (TDA: at his seat when the initial deal ends):
    // in stud at once; in button games at his turn, so that his blinds stay in play.
    if (info.stud) {
      for (const seat of order) if (!p[seat].present) p[seat].folded = true;
    }
    // The big blind sets the bet even when its poster is short or all in on his
    // ante (RR Buttons and blinds 1).
    if (!info.stud && s.bigBlind != null) nominal = Math.max(nominal, this._st.big_blind);
    const cur = s.cur;
    if (!info.stud && nominal) {
      cur.bet = Math.max(nominal, ...order.map((x) => p[x].bet));
      cur.full = cur.bet;
      cur.fulls = 1;
      cur.inc = s.straddleSeat != null && nominal === this._st.straddle ? nominal : cur.inc;
    } else {
      cur.bet = Math.max(0, ...order.map((x) => p[x].bet));
    }
    this._beginStreet(true);
  }

  // -- reading ---------------------------------------------------------------------

  get game() {
    return this._init.game;
  }

  get structure() {
    return clone(this._st);
  }

  get handNo() {
    return this._init.handNo;
  }

  get toAct() {
    return this._s.phase === "bet" ? this._s.toAct : null;
  }

  get street() {
    return this._s.street;
  }

  get streetName() {
    const names = this._info.stud
      ? this._info.code === "SOKO"
        ? STREET_NAMES.soko
        : STREET_NAMES.stud
      : STREET_NAMES.board;
    return names[this._s.street - 1];
  }

  get over() {
    return this._s.phase === "over";
  }

  /** Whether the hand went to a showdown (two or more hands in after the last round). */
  get showdown() {
    return this._s.reachedShowdown;
  }

  get pot() {
    return this._s.order.reduce((sum, x) => sum + this._s.p[x].putIn, 0);
  }

  get currentBet() {
    return this._s.cur.bet;
  }

  get board() {
    return [...this._s.board];
  }

  get boards() {
    return this._s.runs ? this._s.runs.boards.map((b) => [...b]) : [[...this._s.board]];
  }

  get button() {
    return this._s.button;
  }

  get events() {
    return clone(this._events);
  }

  get seats() {
    const s = this._s;
    return s.order.map((x) => {
      const q = s.p[x];
      return {
        seat: x,
        player: q.player,
        stack: q.stack,
        behind: q.stack - q.putIn,
        putIn: q.putIn,
        dead: q.dead,
        straddle: q.straddle,
        bet: q.bet,
        folded: q.folded,
        allIn: q.stack === q.putIn,
        mucked: q.mucked,
        shown: q.shown ? [...q.shown] : null,
        up: [...q.up],
        present: q.present,
      };
    });
  }

  // -- helpers -----------------------------------------------------------------------

  _behind(x) {
    const q = this._s.p[x];
    return q.stack - q.putIn;
  }

  _canAct(x) {
    const q = this._s.p[x];
    return !q.folded && q.stack > q.putIn;
  }

  _contenders() {
    return this._s.order.filter((x) => !this._s.p[x].folded && !this._s.p[x].mucked);
  }

  _live() {
    return this._s.order.filter((x) => !this._s.p[x].folded);
  }

  /** Seats clockwise, starting with the first seat after ``from`` (a seat or position). */
  _clockwiseFrom(from) {
    const order = this._s.order;
    const i = order.findIndex((x) => x > from);
    return i < 0 ? [...order] : [...order.slice(i), ...order.slice(0, i)];
  }

  _unit() {
    const cur = this._s.cur;
    if (cur.bigUnit) return this._st.big_bet;
    return this._s.street >= 3 ? this._st.big_bet : this._st.small_bet;
  }

  _minBet() {
    return this._info.stud ? this._st.small_bet : this._st.big_blind;
  }

  _newRound() {
    const s = this._s;
    for (const x of s.order) {
      s.p[x].bet = 0;
      s.p[x].matched = null;
      s.p[x].matchedFulls = 0;
    }
    s.cur = {
      bet: 0,
      full: 0, // the last full bet level (limit)
      fulls: 0, // full bets and raises this round (the cap counts them)
      inc: 0, // the last full bet or raise: the minimum raise (RR No limit 4)
      bigUnit: false,
      cappedMultiway: false,
      bringIn: null, // the seat that must bring in (stud, first round)
      aggressor: null,
    };
    s.cur.inc = this._st.betting === "limit" ? this._unit() : this._minBet();
    s.lastRoundAggressor = null;
  }

  _needsToAct(x) {
    const s = this._s;
    const q = s.p[x];
    if (!this._canAct(x)) return false;
    if (q.matched !== null && q.bet >= s.cur.bet) return false;
    const others = s.order.filter((y) => y !== x && this._canAct(y));
    if (!others.length) {
      const top = Math.max(0, ...s.order.filter((y) => y !== x).map((y) => s.p[y].bet));
      if (q.bet >= top) return false; // nobody left to bet against
    }
    return true;
  }

  // -- the flow of the hand ----------------------------------------------------------

  _beginStreet(first = false) {
    const s = this._s;
    if (!first) this._newRound();
    if (this._live().length < 2) {
      s.phase = "over";
      return;
    }
    if (this._cardsNeeded()) {
      s.phase = "deal";
      return;
    }
    this._openBetting();
  }

  _cardsNeeded() {
    const s = this._s;
    const info = this._info;
    if (!info.stud) return info.boardCards[s.street - 1] > s.board.length;
    if (!this._upStreet(s.street)) return false;
    return this._live().some((x) => s.p[x].up.length < s.street);
  }

  _upStreet(street) {
    // Stud: up-cards on third to sixth street, seventh down. Sökö: all four streets.
    return street <= 4;
  }

  _openBetting() {
    const s = this._s;
    s.phase = "bet";
    const actors = s.order.filter((x) => this._canAct(x));
    const start = this._firstActor();
    if (actors.length === 0 || (actors.length === 1 && !this._needsToAct(actors[0]))) {
      this._endStreet();
      return;
    }
    if (this._info.stud && s.street === 1 && this._st.bring_in > 0) {
      s.cur.bringIn = start;
      s.toAct = start;
      return;
    }
    const next = this._rotation(start).find((x) => this._needsToAct(x));
    if (next === undefined) {
      this._endStreet();
      return;
    }
    s.toAct = next;
    this._foldAbsent();
  }

  /** The seat to act is absent (a tournament's dead hand): it folds. */
  _foldAbsent() {
    const s = this._s;
    if (s.phase === "bet" && s.toAct !== null && !s.p[s.toAct].present) {
      const seat = s.toAct;
      s.p[seat].folded = true;
      this._mark(seat);
      this._advance(seat);
    }
  }

  /** Seats clockwise starting AT ``seat``. */
  _rotation(seat) {
    const order = this._s.order;
    const i = order.indexOf(seat);
    if (i < 0) return this._clockwiseFrom(seat);
    return [...order.slice(i), ...order.slice(0, i)];
  }

  /** The seat the round's action starts from (it may be all in: the next acts). */
  _firstActor() {
    const s = this._s;
    const info = this._info;
    if (info.stud) {
      const live = this._live();
      if (s.street === 1) {
        const mode = info.bringIn === "low" ? "low" : info.code === "RAZZ" ? "high_razz" : "high";
        const able = live.filter((x) => this._canAct(x));
        const pool = able.length ? able : live;
        let best = pool[0];
        for (const x of pool) {
          if (bringInCardKey(s.p[x].up[0], mode) > bringInCardKey(s.p[best].up[0], mode)) best = x;
        }
        return best;
      }
      let best = live[0];
      const keyOf = (x) => showingKey(s.p[x].up.slice(0, 4), info.show);
      for (const x of live) {
        const c = compareKeys(keyOf(x), keyOf(best));
        if (info.show === "low" ? c < 0 : c > 0) best = x; // ties: the lower seat
      }
      return best;
    }
    if (s.street === 1) {
      const after = s.straddleSeat ?? s.bigBlind ?? s.button;
      return this._clockwiseFrom(after ?? 0)[0];
    }
    return this._clockwiseFrom(s.button ?? 0)[0];
  }

  _endStreet() {
    const s = this._s;
    s.toAct = null;
    if (this._live().length < 2) {
      s.phase = "over";
      return;
    }
    if (s.street >= this._info.streets) {
      if (s.runs && s.runs.boards[1].length < this._info.boardCards.at(-1)) {
        s.phase = "deal";
        return;
      }
      this._toShowdown();
      return;
    }
    s.street += 1;
    this._beginStreet();
  }

  _toShowdown() {
    const s = this._s;
    s.phase = "showdown";
    s.reachedShowdown = true;
    this._checkShowdownOver();
  }

  _checkShowdownOver() {
    const s = this._s;
    const open = this._contenders();
    if (open.length <= 1 || open.every((x) => s.p[x].shown)) s.phase = "over";
  }

  // -- options -----------------------------------------------------------------------

  _raiseRight(x) {
    const s = this._s;
    const q = s.p[x];
    const cur = s.cur;
    if (!s.order.some((y) => y !== x && this._canAct(y))) {
      return ["no_opponent", "Every other player is all in: call or fold.", "RR All-in"];
    }
    const reopened =
      q.matched === null || cur.fulls > q.matchedFulls || cur.bet - q.matched >= cur.inc;
    if (!reopened) {
      return [
        "not_reopened",
        "An all-in short of a full raise does not reopen the betting to a player who already acted: call or fold.",
        "FI Full bet",
      ];
    }
    if (this._st.betting === "limit") {
      const cap = 1 + this._st.cap_raises;
      const headsUp = this._live().length === 2 && this._st.heads_up_uncapped;
      if (cur.fulls >= cap && !(headsUp && !cur.cappedMultiway)) {
        return [
          "cap_reached",
          `The betting is capped: a bet and ${this._st.cap_raises} raises.`,
          "RR Limit",
        ];
      }
    }
    return null;
  }

  /** The amounts a bet or raise may go to: {min, max, sizes?}. */
  _aggressRange(x) {
    const s = this._s;
    const q = s.p[x];
    const cur = s.cur;
    const total = q.bet + this._behind(x);
    const betting = this._st.betting;
    // The most any opponent can put in this round: a bet or raise to it puts them all in,
    // and is allowed even short of the full size (the rest would come back, RK5).
    const cover = Math.max(
      0,
      ...this._live()
        .filter((y) => y !== x)
        .map((y) => s.p[y].bet + this._behind(y)),
    );
    if (betting === "limit") {
      const units = [this._unit()];
      if (
        this._info.openPair &&
        s.street === 2 &&
        !cur.bigUnit &&
        this._live().some((y) => {
          const up = s.p[y].up;
          return up.length >= 2 && up[0][0] === up[1][0];
        })
      ) {
        units.push(this._st.big_bet); // RR Stud: an open pair on fourth street
      }
      const sizes = units.map((u) => cur.full + u).filter((v) => v > cur.bet);
      if (cover > cur.bet && cover < Math.min(...sizes)) sizes.unshift(cover);
      return { min: Math.min(...sizes), max: Math.max(...sizes), sizes, total, cover };
    }
    let min;
    if (cur.fulls === 0 && cur.bringIn !== null) min = this._minBet(); // complete the bring-in
    else min = cur.bet + cur.inc;
    let max = total;
    let potMax = null;
    if (betting === "pot_limit") {
      // The pot after calling; the minimum bet or raise is allowed even above it.
      potMax = Math.max(cur.bet + this.pot + (cur.bet - q.bet), min);
      max = Math.min(max, potMax);
    }
    return { min, max, total, potMax, cover };
  }

  /** What ``seat`` may do now (amounts are his total for the round), or null. */
  options(seat = this.toAct) {
    const s = this._s;
    if (seat === null || seat === undefined || s.phase !== "bet" || seat !== s.toAct) return null;
    const x = seat;
    const q = s.p[x];
    const cur = s.cur;
    const behind = this._behind(x);
    const total = q.bet + behind;
    const toCall = Math.max(0, Math.min(cur.bet, total) - q.bet);
    const pot = this.pot;
    const range = this._aggressRange(x);
    const right = this._raiseRight(x);
    const forcedBringIn = cur.bringIn === x && q.matched === null;
    const out = {
      seat: x,
      fold: !forcedBringIn,
      check: cur.bet <= q.bet && !forcedBringIn,
      call: cur.bet > q.bet ? { to: Math.min(cur.bet, total), amount: toCall } : null,
      bet: null,
      raise: null,
      allIn: null,
      bringIn: forcedBringIn ? { to: Math.min(this._st.bring_in, total) } : null,
      toCall,
      currentBet: cur.bet,
      pot,
      minRaise: null,
      potLimitMax: range.potMax ?? null,
    };
    const canAggress = !right && total > cur.bet;
    if (canAggress) {
      const kind = cur.bet > 0 && !forcedBringIn ? "raise" : "bet";
      if (total >= range.min) {
        const r = { min: range.min, max: Math.min(range.max, total) };
        if (range.sizes) r.sizes = range.sizes.filter((v) => v <= total);
        out[kind] = r;
        out.minRaise = range.min;
      }
      if (total <= range.max || (range.sizes && total < range.min)) {
        out.allIn = { to: total, kind };
      }
    }
    if (!out.allIn && total <= cur.bet && total > q.bet) {
      out.allIn = { to: total, kind: "call" };
    }
    return out;
  }

  // -- acting ------------------------------------------------------------------------

  _guardPhase() {
    const phase = this._s.phase;
    if (phase === "over") refuse("hand_over", "The hand is over.");
    if (phase === "deal") {
      refuse("cards_needed", "Deal the cards first.", { allowed: this.needs() });
    }
    if (phase === "showdown") refuse("hand_over", "The betting is over: show or muck.");
  }

  /** Seat ``seat`` acts: {type: fold|check|call|bet|raise|allin|bring_in, to}. */
  act(seat, action) {
    seat = Number(seat);
    this._act(seat, action || {});
    this._events.push({ t: "act", seat, type: action.type, to: action.to ?? null });
    return this;
  }

  _act(seat, action) {
    this._guardPhase();
    const s = this._s;
    if (!s.p[seat] || s.p[seat].folded) {
      refuse("not_in_hand", `Seat ${seat} is not in the hand.`, { seat });
    }
    if (seat !== s.toAct) {
      refuse("not_your_turn", `It is seat ${s.toAct}'s turn, not seat ${seat}'s.`, {
        rule: "RR Action in turn",
        seat,
        allowed: { seats: [s.toAct] },
      });
    }
    const opt = this.options(seat);
    const q = s.p[seat];
    const type = action.type;
    if (opt.bringIn && !["bring_in", "bet", "raise", "allin"].includes(type)) {
      refuse("bring_in_required", "The lowest card must bring in or complete the bet.", {
        rule: this._info.bringIn === "low" ? "RR Stud" : "RR Razz",
        seat,
        allowed: { to: opt.bringIn.to },
      });
    }
    switch (type) {
      case "fold":
        q.folded = true;
        q.matched = s.cur.bet;
        q.matchedFulls = s.cur.fulls;
        break;
      case "check":
        if (!opt.check) {
          refuse("cannot_check", `Seat ${seat} faces a bet of ${s.cur.bet}: call, raise or fold.`, {
            rule: "RR Betting",
            seat,
            allowed: { call: opt.call?.to ?? null },
          });
        }
        this._mark(seat);
        break;
      case "call":
        if (!opt.call) {
          refuse("nothing_to_call", "There is no bet to call: check or bet.", { seat });
        }
        this._pay(seat, opt.call.to);
        this._mark(seat);
        break;
      case "bring_in":
        if (!opt.bringIn) {
          refuse("no_bring_in", "Only the bring-in seat brings in, as its first action.", {
            rule: "RR Stud",
            seat,
          });
        }
        this._pay(seat, opt.bringIn.to);
        s.cur.bet = Math.max(s.cur.bet, q.bet);
        if (q.bet >= this._minBet() && this._st.betting !== "limit") {
          s.cur.fulls = 1;
          s.cur.inc = q.bet;
          s.cur.full = q.bet;
        }
        this._mark(seat);
        break;
      case "allin":
        this._aggress(seat, q.bet + this._behind(seat), opt, true);
        break;
      case "bet":
      case "raise":
        this._aggress(seat, action.to, opt, false);
        break;
      default:
        refuse("unknown_action", `Unknown action ${JSON.stringify(type)}.`, {
          allowed: { types: ["fold", "check", "call", "bet", "raise", "allin", "bring_in"] },
        });
    }
    this._advance(seat);
  }

  _mark(seat) {
    const q = this._s.p[seat];
    q.matched = this._s.cur.bet;
    q.matchedFulls = this._s.cur.fulls;
  }

  _pay(seat, to) {
    const q = this._s.p[seat];
    const add = to - q.bet;
    q.bet = to;
    q.putIn += add;
  }

  _aggress(seat, to, opt, allIn) {
    const s = this._s;
    const q = s.p[seat];
    const cur = s.cur;
    const total = q.bet + this._behind(seat);
    if (!Number.isSafeInteger(to)) {
      refuse("bad_amount", "Give the amount as whole cents: the seat's total for the round.", {
        seat,
      });
    }
    if (to > total) {
      refuse("above_stack", `Seat ${seat} has ${total} in all: table stakes.`, {
        rule: "BI3",
        seat,
        allowed: { max: total },
      });
    }
    if (to <= cur.bet && !(allIn && to > q.bet)) {
      refuse("below_minimum", `A raise must go above the current bet of ${cur.bet}.`, {
        rule: "RR Betting",
        seat,
        allowed: opt.raise || opt.bet ? { min: (opt.raise || opt.bet).min, max: (opt.raise || opt.bet).max } : null,
      });
    }
    if (to <= cur.bet) {
      // all in for no more than the bet: a call
      this._pay(seat, to);
      this._mark(seat);
      return;
    }
    const right = this._raiseRight(seat);
    if (right) {
      refuse(right[0], right[1], {
        rule: right[2],
        seat,
        allowed: opt.call ? { call: opt.call.to } : null,
      });
    }
    const range = this._aggressRange(seat);
    const allowed = { min: range.min, max: Math.min(range.max, total) };
    const isAllIn = to === total;
    const covering = range.cover > cur.bet && to >= range.cover && to < range.min;
    if (range.sizes) {
      allowed.sizes = range.sizes;
      const short = isAllIn && to < range.max;
      if (!short && !range.sizes.includes(to)) {
        refuse(
          "not_limit_size",
          `In a limit game the ${cur.bet ? "raise" : "bet"} is to ${range.sizes.join(" or ")}.`,
          { rule: "RR Limit", seat, allowed },
        );
      }
    } else {
      if (to < range.min && !isAllIn && !covering) {
        refuse(
          "below_minimum",
          `The minimum ${cur.bet ? "raise" : "bet"} is to ${range.min}: at least the last full bet or raise.`,
          { rule: cur.bet ? "RR No limit 4" : "RR No limit 2", seat, allowed },
        );
      }
      if (to > range.max) {
        refuse("above_maximum", `Pot limit: at most ${range.max}, the pot after calling.`, {
          rule: "RR Pot limit",
          seat,
          allowed,
        });
      }
    }
    // A full bet or raise reopens the betting and sets the next minimum; a short
    // all-in does neither (FI Full bet).
    const before = cur.bet;
    this._pay(seat, to);
    if (to >= range.min || covering) {
      if (range.sizes) {
        if (range.sizes.length > 1 && to >= cur.full + this._st.big_bet) cur.bigUnit = true;
        cur.inc = to - cur.full;
      } else {
        // The raise over the current bet; completing a bring-in is a full small bet.
        cur.inc = Math.max(to - before, cur.inc);
      }
      cur.full = to;
      cur.fulls += 1;
      if (
        this._st.betting === "limit" &&
        cur.fulls >= 1 + this._st.cap_raises &&
        this._live().length > 2
      ) {
        cur.cappedMultiway = true;
      }
    }
    cur.bet = Math.max(cur.bet, to);
    cur.aggressor = seat;
    this._mark(seat);
  }

  _advance(actor) {
    const s = this._s;
    if (this._live().length < 2) {
      s.toAct = null;
      s.phase = "over";
      return;
    }
    const next = this._clockwiseFrom(actor).find((x) => this._needsToAct(x));
    if (next === undefined) {
      s.lastRoundAggressor = s.cur.aggressor;
      this._endStreet();
      return;
    }
    s.toAct = next;
    this._foldAbsent();
  }

  // -- cards -------------------------------------------------------------------------

  _known() {
    const s = this._s;
    const seen = new Set(s.board);
    if (s.runs) for (const run of s.runs.boards) for (const c of run) seen.add(c);
    for (const x of s.order) {
      for (const c of s.p[x].up) seen.add(c);
      for (const c of s.p[x].shown || []) seen.add(c);
    }
    return seen;
  }

  /** What the dealer must enter next, or null (someone acts, or the hand is over). */
  needs() {
    const s = this._s;
    const info = this._info;
    if (s.phase === "showdown") {
      return {
        kind: "showdown",
        seats: this.showOrder().filter((x) => !s.p[x].shown && !s.p[x].mucked),
      };
    }
    if (s.phase !== "deal") return null;
    if (s.runs && s.street >= info.streets && s.runs.boards[0].length >= info.boardCards.at(-1)) {
      const run = s.runs.boards[1];
      const street = info.boardCards.findIndex((n) => n > run.length) + 1;
      return { kind: "board", street, run: 2, count: info.boardCards[street - 1] - run.length };
    }
    if (!info.stud) {
      return {
        kind: "board",
        street: s.street,
        run: 1,
        count: info.boardCards[s.street - 1] - s.board.length,
      };
    }
    return {
      kind: "up",
      street: s.street,
      seats: this._live().filter((x) => s.p[x].up.length < s.street),
    };
  }

  /** Enter the cards needs() asks for: board cards (array) or up-cards ({seat: card}). */
  deal(cards) {
    this._deal(cards);
    this._events.push({ t: "deal", cards: clone(cards) });
    return this;
  }

  _deal(cards) {
    const need = this.needs();
    if (!need || need.kind === "showdown") {
      refuse("nothing_to_deal", "No cards are due now.", { allowed: null });
    }
    const s = this._s;
    const seen = this._known();
    const fresh = new Set();
    const check = (c) => {
      checkCard(c);
      if (seen.has(c) || fresh.has(c)) {
        refuse("duplicate_card", `${c} is already dealt in this hand.`, { rule: "RK8" });
      }
      fresh.add(c);
    };
    if (need.kind === "board") {
      if (!Array.isArray(cards) || cards.length !== need.count) {
        refuse("wrong_card_count", `Deal ${need.count} board card(s).`, {
          rule: "HS9",
          allowed: { cards: need.count },
        });
      }
      cards.forEach(check);
      if (need.run === 2) {
        s.runs.boards[1].push(...cards);
        if (s.runs.boards[1].length >= this._info.boardCards.at(-1)) this._toShowdown();
        return;
      }
      s.board.push(...cards);
      if (s.runs) s.runs.boards[0] = s.board;
    } else {
      const entries = Array.isArray(cards) ? cards : Object.entries(cards || {});
      const given = new Map(entries.map(([seat, card]) => [Number(seat), card]));
      const want = need.seats;
      if (given.size !== want.length || !want.every((x) => given.has(x))) {
        refuse("wrong_card_count", `Deal one up-card to each of seats ${want.join(", ")}.`, {
          rule: "HS9",
          allowed: { seats: want },
        });
      }
      for (const x of want) check(given.get(x));
      for (const x of want) s.p[x].up.push(given.get(x));
    }
    this._openBetting();
  }

  /** Whether the cards still to come are dealt with no more betting: at most one
   * seat has chips and none has a bet to answer. */
  _runningOut() {
    const s = this._s;
    return (
      s.phase === "deal" &&
      s.order.filter((x) => this._canAct(x)).length <= 1 &&
      !s.order.some((x) => this._needsToAct(x))
    );
  }

  /** Whether the players may run the rest of the board twice now (HS10). */
  get canRunTwice() {
    const s = this._s;
    const info = this._info;
    return (
      !info.stud &&
      !s.runs &&
      this._runningOut() &&
      this._live().length >= 2 &&
      s.board.length < info.boardCards.at(-1)
    );
  }

  /** The players all in agree to run the rest of the board twice (HS10). */
  runTwice() {
    this._runTwice();
    this._events.push({ t: "run2" });
    return this;
  }

  _runTwice() {
    if (!this.canRunTwice) {
      refuse(
        "cannot_run_twice",
        "A pot runs twice only when the betting is over, cards are still to come and the players are all in.",
        { rule: "HS10" },
      );
    }
    const s = this._s;
    s.runs = { from: s.board.length, boards: [s.board, [...s.board]] };
  }

  // -- showdown ----------------------------------------------------------------------

  /** The order hands are shown in (TDA): the last aggressor first, else the first to act. */
  showOrder() {
    const s = this._s;
    const live = this._contenders();
    let first = s.lastRoundAggressor ?? null;
    if (first === null || !live.includes(first)) {
      if (this._info.stud) {
        first = this._firstActor();
      } else {
        first = this._clockwiseFrom(s.button ?? 0).find((x) => live.includes(x));
      }
    }
    return this._rotation(first).filter((x) => live.includes(x));
  }

  /** Seat ``seat`` shows its cards (hole cards; in stud all its cards). */
  show(seat, cards) {
    seat = Number(seat);
    this._show(seat, cards);
    this._events.push({ t: "show", seat, cards: clone(cards) });
    return this;
  }

  _show(seat, cards) {
    const s = this._s;
    const q = s.p[seat];
    const info = this._info;
    const uncontested =
      s.phase === "over" && this._contenders().length === 1 && this._contenders()[0] === seat;
    // All in with the betting over, board-game hands are turned up before the board
    // runs out (TDA: all hands tabled when a player is all in).
    const runout = !info.stud && this._runningOut();
    if (!q || q.folded || q.mucked || q.shown || !(s.phase === "showdown" || uncontested || runout)) {
      refuse("not_at_showdown", `Seat ${seat} can't show now.`, { rule: "HS3", seat });
    }
    const count = info.stud ? info.seatCards[s.street - 1] : info.hole;
    if (!Array.isArray(cards) || cards.length !== count) {
      refuse("wrong_card_count", `Seat ${seat} shows ${count} cards.`, {
        rule: "HS9",
        seat,
        allowed: { cards: count },
      });
    }
    cards.forEach(checkCard);
    if (new Set(cards).size !== cards.length) {
      refuse("duplicate_card", "A card is named twice.", { rule: "RK8", seat });
    }
    const own = new Set(q.up);
    if (info.stud && !q.up.every((c) => cards.includes(c))) {
      refuse("up_cards_missing", `Seat ${seat}'s cards must include its up-cards ${q.up.join(" ")}.`, {
        rule: "HS9",
        seat,
        allowed: { cards: q.up },
      });
    }
    const seen = this._known();
    for (const c of cards) {
      if (seen.has(c) && !own.has(c)) {
        refuse("duplicate_card", `${c} is already dealt in this hand.`, { rule: "RK8", seat });
      }
    }
    q.shown = [...cards];
    if (s.phase === "showdown") this._checkShowdownOver();
  }

  /** Seat ``seat`` mucks at the showdown: it wins nothing (HS3). */
  muck(seat) {
    seat = Number(seat);
    this._muck(seat);
    this._events.push({ t: "muck", seat });
    return this;
  }

  _muck(seat) {
    const s = this._s;
    const q = s.p[seat];
    if (!q || q.folded || q.mucked || q.shown || s.phase !== "showdown") {
      refuse("not_at_showdown", `Seat ${seat} can't muck now.`, { rule: "HS3", seat });
    }
    q.mucked = true; // the showdown ends when one hand is left in: it can't be mucked
    this._checkShowdownOver();
  }

  _apply(event) {
    switch (event.t) {
      case "act":
        this._act(event.seat, { type: event.type, to: event.to ?? undefined });
        break;
      case "deal":
        this._deal(event.cards);
        break;
      case "run2":
        this._runTwice();
        break;
      case "show":
        this._show(event.seat, event.cards);
        break;
      case "muck":
        this._muck(event.seat);
        break;
      default:
        refuse("unknown_event", `Unknown event ${event.t}.`);
    }
    this._events.push(clone(event));
  }

  // -- the record --------------------------------------------------------------------

  /** The hand record of API.md (what POST hands takes). */
  record({ endedAt = null, awarded = null } = {}) {
    const s = this._s;
    if (s.phase !== "over") {
      refuse("not_over", "The hand is not over yet.", { allowed: this.needs() });
    }
    const info = this._info;
    const init = this._init;
    const rec = {
      table: init.table,
      hand_no: init.handNo,
      game: init.game,
      button: info.stud ? null : s.button,
      started_at: init.startedAt,
      ended_at: endedAt,
      streets: s.street,
      board: [...s.board],
    };
    if (s.runs) rec.boards = s.runs.boards.map((b) => [...b]);
    if (info.stud && this._st.bring_in > 0) rec.bring_in = this._st.bring_in;
    rec.seats = s.order.map((x) => {
      const q = s.p[x];
      const row = {
        seat: x,
        player: q.player,
        stack: q.stack,
        present: q.present,
        put_in: q.putIn,
        folded: q.folded,
      };
      if (q.shown && !q.folded) row.cards = [...q.shown];
      if (q.dead) row.dead = q.dead;
      if (q.straddle) row.straddle = q.straddle;
      if (q.mucked) row.mucked = true;
      return row;
    });
    if (awarded) rec.awarded = clone(awarded);
    return rec;
  }
}
