// The push: before the hand goes, the dealer sees it settled as the product will
// book it — pots in order with who wins each, rake, jackpot drop, uncalled
// returns, odd chips and every seat's new stack — from the server's preview when it
// answers, from the same rules on the tablet when it doesn't (and says which).

import {button, h} from "./dom.js";
import {gettext, interpolate, money} from "./i18n.js";
import {cardsRow} from "./cards.js";
import {describeError} from "./errors.js";

let names = {};

function seatName(record, settlement, seatNo) {
  const seat = settlement.seats.find((s) => s.seat === seatNo);
  if (!seat) return String(seatNo);
  return `${seatNo} · ${names[seatNo] || seat.player}`;
}

// The seats that took an odd chip in a split pot: more than the least winner.
function oddChips(pot) {
  if (!pot.winners || pot.winners.length < 2) return [];
  const least = Math.min(...pot.winners.map((w) => w.amount));
  return pot.winners.filter((w) => w.amount > least).map((w) => ({seat: w.seat, extra: w.amount - least}));
}

function potsTable(record, settlement) {
  const rows = settlement.pots.map((pot, i) => {
    const odd = Object.fromEntries(oddChips(pot).map((o) => [o.seat, o.extra]));
    return h("tr", {"data-pot": i},
      h("td", {}, i === 0 ? gettext("Main pot") : interpolate(gettext("Side pot %(n)s"), {n: i})),
      h("td", {class: "num"}, money(pot.amount)),
      h("td", {}, (pot.winners || []).map((w) => h("div", {"data-winner": w.seat},
        `${seatName(record, settlement, w.seat)}: `, h("b", {}, money(w.amount)),
        odd[w.seat] ? h("span", {class: "odd", "data-odd": w.seat},
          ` (${gettext("Odd chips")} +${money(odd[w.seat])})`) : null))),
      h("td", {class: "num"}, money(pot.rake || 0)),
      h("td", {class: "num"}, money(pot.jackpot_drop || 0)));
  });
  return h("table", {"data-role": "pots"},
    h("thead", {}, h("tr", {},
      h("th", {}, gettext("Pot")), h("th", {class: "num"}, gettext("Amount")),
      h("th", {}, gettext("Winners")), h("th", {class: "num"}, gettext("Rake")),
      h("th", {class: "num"}, gettext("Drop")))),
    h("tbody", {}, rows));
}

function seatsTable(record, settlement) {
  const cards = Object.fromEntries(record.seats.map((s) => [s.seat, s.cards]));
  return h("table", {"data-role": "stacks"},
    h("thead", {}, h("tr", {},
      h("th", {}, gettext("Seat")), h("th", {class: "num"}, gettext("Put in")),
      h("th", {class: "num"}, gettext("Returned")), h("th", {class: "num"}, gettext("Won")),
      h("th", {class: "num"}, gettext("New stack")), h("th", {}, gettext("Hand")))),
    h("tbody", {}, settlement.seats.map((s) => h("tr", {"data-seat": s.seat},
      h("td", {}, seatName(record, settlement, s.seat)),
      h("td", {class: "num"}, money(s.put_in)),
      h("td", {class: "num"}, s.returned ? money(s.returned) : "—"),
      h("td", {class: "num"}, s.won ? money(s.won) : "—"),
      h("td", {class: "num", "data-role": "final"}, h("b", {}, money(s.final_stack))),
      h("td", {}, cards[s.seat] ? cardsRow(cards[s.seat], {small: true}) : "", " ", s.hand || "")))));
}

export function renderPush(app) {
  const push = app.push;
  const {record, settlement} = push;
  names = Object.fromEntries((app.table.seats || []).map((s) => [s.seat, s.name || s.player]));
  const body = [];
  if (!settlement) {
    body.push(h("section", {},
      h("h2", {}, push.localError ? gettext("This hand can't be settled") : gettext("Settling…")),
      push.localError ? h("p", {class: "refusal", role: "alert"}, describeError(push.localError)) : null));
  } else {
    const returned = (settlement.returned || []).filter((r) => r.amount);
    body.push(
      h("section", {},
        h("h2", {}, interpolate(gettext("Hand %(n)s settled"), {n: record.hand_no})),
        h("p", {}, push.source === "server"
          ? h("span", {class: "source", "data-source": "server"}, gettext("Settled by the server (preview: nothing is booked yet)"))
          : h("span", {class: "source offline", "data-source": "terminal"},
            gettext("Settled on this tablet: the server doesn't answer"))),
        h("div", {class: "totals"},
          h("span", {}, gettext("Rake"), " ", h("b", {"data-role": "rake"}, money(settlement.rake))),
          h("span", {}, gettext("Jackpot drop"), " ", h("b", {"data-role": "drop"}, money(settlement.jackpot_drop))),
          returned.length ? h("span", {"data-role": "returned"}, gettext("Returned"), " ",
            returned.map((r) => h("b", {}, `${r.seat}: ${money(r.amount)} `))) : null),
        (record.boards || [record.board]).filter((b) => b && b.length).map((b) => h("p", {}, cardsRow(b))),
        potsTable(record, settlement)),
      h("section", {}, h("h2", {}, gettext("Stacks")), seatsTable(record, settlement)));
  }
  if (push.refusal) {
    body.push(h("section", {},
      h("h2", {}, gettext("The server refuses this hand")),
      h("p", {class: "refusal", role: "alert", "data-role": "preview-refusal"}, describeError(push.refusal)),
      h("p", {}, gettext("If it is posted, it is kept for the floor to handle, and the next hands go on."))));
  }
  return [
    h("main", {class: "main push"}, body),
    h("footer", {class: "foot"},
      h("div", {class: "info"}, h("span", {class: "facts"},
        gettext("Push the chips as shown, then post the hand."))),
      h("div", {class: "actions"},
        button(gettext("Back to the hand"), () => app.reopenHand(), {class: "quiet", "data-action": "reopen"}),
        button(gettext("Post the hand"), () => app.confirmPush(), {
          class: "primary", "data-action": "post", disabled: !settlement,
        }))),
  ];
}
