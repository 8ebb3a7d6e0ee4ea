// The seats round the oval, as the table screen and the hand screen draw them.

import {button, h} from "./dom.js";
import {gettext, money} from "./i18n.js";
import {cardsRow} from "./cards.js";

// Where seat n of `count` sits round the oval, in percent of the felt: seat 1 at
// the dealer's left, on round clockwise, the dealer at the bottom middle.
export function seatPosition(n, count) {
  // The dealer's place is one more around the circle, left empty.
  const angle = Math.PI / 2 + (n / (count + 1)) * 2 * Math.PI;
  return {left: `${50 + 44 * Math.cos(angle)}%`, top: `${50 + 42 * Math.sin(angle)}%`};
}

// `seat`: {seat, name, player, stack, badges: [[text, kind]], bet, cards, state}.
export function seatBox(seat, count, {onclick = null, classes = ""} = {}) {
  const position = seatPosition(seat.seat, count);
  const inner = [
    h("span", {class: "top"},
      h("span", {class: "no"}, seat.seat),
      h("span", {class: "name"}, seat.name || seat.player || gettext("Empty seat"))),
    seat.player ? h("span", {class: "stack", "data-role": "stack"}, money(seat.stack)) : null,
    seat.bet ? h("span", {class: "bet", "data-role": "bet"}, money(seat.bet)) : null,
    seat.cards && seat.cards.length ? cardsRow(seat.cards, {small: true}) : null,
    seat.badges && seat.badges.length ? h("span", {class: "badges"},
      seat.badges.map(([text, kind]) => h("span", {class: `badge ${kind || ""}`}, text))) : null,
  ];
  const attrs = {
    class: `seat ${seat.player ? "" : "empty"} ${classes}`,
    style: position,
    dataset: {seat: seat.seat, player: seat.player || ""},
  };
  if (onclick) return button(inner, onclick, attrs);
  return h("div", attrs, inner);
}
