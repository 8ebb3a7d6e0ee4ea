// Hand ranking for every game of API.md (RULES.md HS9), as cardroom.domain.ranking
// and cardroom.domain.soko rank them.
//
// Each game ranks a hand by one or two halves: high (every game but razz), low
// (eight or better, the second half of PLO8 and STUD8) or razz (ace-to-five). A half
// turns a seat's cards into a key, a number where a bigger key is a better hand and
// equal keys are exactly a tie, so pots are split by comparing keys alone. The keys
// are not the Python engine's numbers, but they order every hand as its keys do:
// the tests compare the two engines' settlements hand by hand.

import { RANK_NAMES, RANK_PLURALS } from "./cards.js";

const P4 = 13 ** 4;
const P5 = 13 ** 5;

/** The categories of high hands, by index (cardroom.domain.ranking.CATEGORIES). */
export const CATEGORIES = [
  "high card", "one pair", "two pair", "three of a kind", "straight", "flush",
  "full house", "four of a kind", "straight flush",
];

// -- high -------------------------------------------------------------------------

// Ranks of five cards, sorted high to low, reused between calls (no allocation).
const sorted5 = [0, 0, 0, 0, 0];

function sortRanks(c0, c1, c2, c3, c4) {
  const r = sorted5;
  r[0] = c0 >> 2; r[1] = c1 >> 2; r[2] = c2 >> 2; r[3] = c3 >> 2; r[4] = c4 >> 2;
  for (let i = 1; i < 5; i++) {
    const v = r[i];
    let j = i - 1;
    while (j >= 0 && r[j] < v) {
      r[j + 1] = r[j];
      j--;
    }
    r[j + 1] = v;
  }
  return r;
}

/**
 * Return the key of five ranks sorted high to low: its category * 13^5, then the
 * ranks in the order the hand is read (most copies first, then the higher rank),
 * base 13. ``suited``: all five share a suit. ``plain``: razz's reading, without
 * straights and flushes, whose categories are 0 no pair, 1 one pair, 2 two pair,
 * 3 three of a kind, 4 full house, 5 four of a kind.
 */
function rankKey(r, suited, plain) {
  const a = r[0], b = r[1], c = r[2], d = r[3], e = r[4];
  if (a > b && b > c && c > d && d > e) {
    if (!plain) {
      let top = -1;
      if (a - e === 4) top = a;
      else if (a === 12 && b === 3) top = 3; // the wheel, A-2-3-4-5: five high
      if (top >= 0) return (suited ? 8 : 4) * P5 + top * P4;
      if (suited) return 5 * P5 + a * P4 + b * 2197 + c * 169 + d * 13 + e;
    }
    return a * P4 + b * 2197 + c * 169 + d * 13 + e;
  }
  // Runs of equal ranks (high to low), then ordered by copies, most first; a
  // stable sort keeps the higher rank first among runs of as many copies.
  const runs = [];
  for (let i = 0; i < 5; ) {
    let j = i + 1;
    while (j < 5 && r[j] === r[i]) j++;
    runs.push([j - i, r[i]]);
    i = j;
  }
  runs.sort((x, y) => y[0] - x[0]);
  const most = runs[0][0];
  const next = runs[1][0];
  let category;
  if (most === 4) category = plain ? 5 : 7;
  else if (most === 3) category = next === 2 ? (plain ? 4 : 6) : 3;
  else category = next === 2 ? 2 : 1;
  let key = 0;
  for (let i = 0; i < 5; i++) key = key * 13 + (i < runs.length ? runs[i][1] : 0);
  return category * P5 + key;
}

/** Return the high key of exactly five card ids. */
export function highFive(c0, c1, c2, c3, c4) {
  const s = c0 & 3;
  const suited = (c1 & 3) === s && (c2 & 3) === s && (c3 & 3) === s && (c4 & 3) === s;
  return rankKey(sortRanks(c0, c1, c2, c3, c4), suited, false);
}

/** Return the high key of the best five of five or more cards (Hold'em, stud). */
export function highAny(hole, board = []) {
  const cards = board.length ? hole.concat(board) : hole;
  const n = cards.length;
  let best = -1;
  for (let i = 0; i < n - 4; i++)
    for (let j = i + 1; j < n - 3; j++)
      for (let k = j + 1; k < n - 2; k++)
        for (let l = k + 1; l < n - 1; l++)
          for (let m = l + 1; m < n; m++) {
            const key = highFive(cards[i], cards[j], cards[k], cards[l], cards[m]);
            if (key > best) best = key;
          }
  return best;
}

/** Return the high key of exactly two hole cards and three board cards (HS9). */
export function highOmaha(hole, board) {
  let best = -1;
  const h = hole.length;
  const n = board.length;
  for (let i = 0; i < h - 1; i++)
    for (let j = i + 1; j < h; j++)
      for (let k = 0; k < n - 2; k++)
        for (let l = k + 1; l < n - 1; l++)
          for (let m = l + 1; m < n; m++) {
            const key = highFive(hole[i], hole[j], board[k], board[l], board[m]);
            if (key > best) best = key;
          }
  return best;
}

function digit(key, place) {
  return Math.floor(key / 13 ** place) % 13;
}

/** Return the category index (in CATEGORIES) of a high key. */
export function highCategoryIndex(key) {
  return Math.floor(key / P5);
}

/** Return a high key as people say it: "full house, kings full of aces". */
export function describeHigh(key) {
  const category = Math.floor(key / P5);
  const first = digit(key, 4);
  const second = digit(key, 3);
  switch (category) {
    case 8:
      return first === 12 ? "royal flush" : `straight flush, ${RANK_NAMES[first]} high`;
    case 7:
      return `four of a kind, ${RANK_PLURALS[first]}`;
    case 6:
      return `full house, ${RANK_PLURALS[first]} full of ${RANK_PLURALS[second]}`;
    case 5:
      return `flush, ${RANK_NAMES[first]} high`;
    case 4:
      return `straight, ${RANK_NAMES[first]} high`;
    case 3:
      return `three of a kind, ${RANK_PLURALS[first]}`;
    case 2:
      return `two pair, ${RANK_PLURALS[first]} and ${RANK_PLURALS[second]}`;
    case 1:
      return `one pair, ${RANK_PLURALS[first]}`;
    default:
      return `high card, ${RANK_NAMES[first]}`;
  }
}

// -- low: eight or better (HS4) --------------------------------------------------

/** Ranks in ace-to-five order: the ace is the lowest card (razz, eight or better). */
export const LOW_RANKS = "A23456789TJQK";
const LOW_PLURALS = Array.from({ length: 13 }, (_, r) => RANK_PLURALS[(r + 12) % 13]);
const LOW_WORST = 8 ** 5;

/** Return the ace-to-five rank of a card id: ace 0, deuce 1 … king 12. */
function lowRank(card) {
  return ((card >> 2) + 1) % 13;
}

/** Return the ``count`` lowest set bits of ``mask``, or 0 when it has fewer. */
function lowestBits(mask, count) {
  let picked = 0;
  for (let i = 0; i < count; i++) {
    if (!mask) return 0;
    const bit = mask & -mask;
    picked |= bit;
    mask ^= bit;
  }
  return picked;
}

/** Return the key of five distinct ace-to-eight ranks as a mask (bit r: rank r). */
function lowKey(mask) {
  let value = 0;
  for (let r = 7; r >= 0; r--) if ((mask >> r) & 1) value = value * 8 + r;
  return LOW_WORST - value;
}

/** Return the best eight-or-better key of any five cards (stud hi-lo), or null. */
export function lowAny(hole, board = []) {
  let mask = 0;
  for (const c of hole) mask |= 1 << lowRank(c);
  for (const c of board) mask |= 1 << lowRank(c);
  const best = lowestBits(mask & 0xff, 5);
  return best ? lowKey(best) : null;
}

/** Return the best eight-or-better key of two hole and three board cards, or null. */
export function lowOmaha(hole, board) {
  let boardMask = 0;
  for (const c of board) boardMask |= 1 << lowRank(c);
  boardMask &= 0xff;
  const lows = [...new Set(hole.map(lowRank).filter((r) => r < 8))].sort((x, y) => x - y);
  let best = null;
  for (let i = 0; i < lows.length; i++)
    for (let j = i + 1; j < lows.length; j++) {
      const pair = (1 << lows[i]) | (1 << lows[j]);
      const three = lowestBits(boardMask & ~pair, 3);
      if (three) {
        const key = lowKey(pair | three);
        if (best === null || key > best) best = key;
      }
    }
  return best;
}

/** Return an eight-or-better key as people say it: "low, 8-6-4-2-A". */
export function describeLow(key) {
  let value = LOW_WORST - key;
  const ranks = [];
  for (let i = 0; i < 5; i++) {
    ranks.unshift(value % 8);
    value = Math.floor(value / 8);
  }
  return "low, " + ranks.map((r) => LOW_RANKS[r]).join("-");
}

// -- razz: ace-to-five, pairs count (HS9) ------------------------------------------

const RAZZ_WORST = 6 * P5;

/** Return the ace-to-five key of five ace-to-five ranks sorted high to low. */
function razzKey(r) {
  return RAZZ_WORST - rankKey(r, false, true);
}

/** Return the best ace-to-five key of any five of five to seven cards (razz). */
export function razzAny(hole, board = []) {
  const ranks = hole.concat(board).map(lowRank).sort((x, y) => y - x);
  const n = ranks.length;
  const five = [0, 0, 0, 0, 0];
  let best = -1;
  for (let i = 0; i < n - 4; i++)
    for (let j = i + 1; j < n - 3; j++)
      for (let k = j + 1; k < n - 2; k++)
        for (let l = k + 1; l < n - 1; l++)
          for (let m = l + 1; m < n; m++) {
            five[0] = ranks[i]; five[1] = ranks[j]; five[2] = ranks[k];
            five[3] = ranks[l]; five[4] = ranks[m];
            const key = razzKey(five);
            if (key > best) best = key;
          }
  return best;
}

// The shapes of razz's categories: copies of each rank group, most first.
const RAZZ_SHAPES = [[1, 1, 1, 1, 1], [2, 1, 1, 1], [2, 2, 1], [3, 1, 1], [3, 2], [4, 1]];

/** Return an ace-to-five key as people say it: "low, 7-5-4-3-A", "one pair, kings". */
export function describeRazz(key) {
  const bad = RAZZ_WORST - key;
  const category = Math.floor(bad / P5);
  const shape = RAZZ_SHAPES[category];
  const groups = shape.map((_, i) => digit(bad, 4 - i));
  if (category === 0) return "low, " + groups.map((r) => LOW_RANKS[r]).join("-");
  const [top, second] = groups;
  switch (category) {
    case 5:
      return `four of a kind, ${LOW_PLURALS[top]}`;
    case 4:
      return `full house, ${LOW_PLURALS[top]} full of ${LOW_PLURALS[second]}`;
    case 3:
      return `three of a kind, ${LOW_PLURALS[top]}`;
    case 2:
      return `two pair, ${LOW_PLURALS[top]} and ${LOW_PLURALS[second]}`;
    default:
      return `one pair, ${LOW_PLURALS[top]}`;
  }
}


// -- Sökö: the Finnish five-card stud (HS9) ----------------------------------------

const TIER = 10_000_000;
const FOUR_STRAIGHT = 2;
const FOUR_FLUSH = 3;
// Standard categories -> Sökö tier: one pair stays below the two new hands, two
// pair and up move above them.
const TIERS = [0, 1, 4, 5, 6, 7, 8, 9, 10];
const TWO_PAIR_TIER = 4;

function fourFlush(cards) {
  const bySuit = [[], [], [], []];
  for (const c of cards) bySuit[c & 3].push(c >> 2);
  for (let suit = 0; suit < 4; suit++) {
    const ranks = bySuit[suit];
    if (ranks.length === 4) {
      const kicker = cards.find((c) => (c & 3) !== suit) >> 2;
      let value = 0;
      for (const r of [...ranks].sort((x, y) => y - x)) value = value * 13 + r;
      return value * 13 + kicker;
    }
  }
  return null;
}

function fourStraight(cards) {
  const ranks = cards.map((c) => c >> 2);
  const present = new Set(ranks);
  const windows = [];
  for (let top = 12; top > 2; top--) windows.push([top, [top - 3, top - 2, top - 1, top]]);
  windows.push([2, [12, 0, 1, 2]]);
  for (const [top, window] of windows) {
    if (window.every((r) => present.has(r))) {
      const rest = [...ranks];
      for (const r of window) rest.splice(rest.indexOf(r), 1);
      return top * 13 + rest[0];
    }
  }
  return null;
}

/** Return the Sökö key of five cards: four flush and four straight between one pair and two pair. */
export function sokoFive(cards) {
  const high = highFive(cards[0], cards[1], cards[2], cards[3], cards[4]);
  const tier = TIERS[highCategoryIndex(high)];
  if (tier < TWO_PAIR_TIER) {
    const flush = fourFlush(cards);
    if (flush !== null) return FOUR_FLUSH * TIER + flush;
    const straight = fourStraight(cards);
    if (straight !== null) return FOUR_STRAIGHT * TIER + straight;
  }
  return tier * TIER + high;
}

/** Return a Sökö key as people say it: "four flush, king high". */
export function describeSoko(key) {
  const tier = Math.floor(key / TIER);
  const value = key % TIER;
  if (tier === FOUR_FLUSH) return `four flush, ${RANK_NAMES[Math.floor(value / P4)]} high`;
  if (tier === FOUR_STRAIGHT) return `four straight, ${RANK_NAMES[Math.floor(value / 13)]} high`;
  return describeHigh(value);
}
