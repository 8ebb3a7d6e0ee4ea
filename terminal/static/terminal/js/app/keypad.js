// The amount keypad: digits in the currency's units (a decimal point for cents),
// quick amounts beside them, and the reason when the amount is refused, shown in
// place before anything else happens.

import {button, h, sheet} from "./dom.js";
import {gettext, money, parseAmount} from "./i18n.js";

// `quick`: [{label, amount}]; `submit(cents)` returns null when it took the
// amount, or the text of its refusal (the keypad stays open and shows it).
export function amountKeypad({title, quick = [], initial = null, submit, name = "keypad", confirmLabel, extra = null}) {
  let typed = initial === null ? "" : String(initial / 100);
  const display = h("output", {class: "amount", "data-role": "amount"});
  const refusal = h("p", {class: "refusal", role: "alert", "data-role": "refusal"});
  const show = () => {
    const cents = parseAmount(typed);
    display.textContent = typed === "" ? "—" : cents === null ? typed : money(cents);
  };
  const press = (key) => () => {
    refusal.textContent = "";
    if (key === "back") typed = typed.slice(0, -1);
    else if (key === "clear") typed = "";
    else if (typed.length < 10) typed += key;
    show();
  };
  let busy = false;
  const enter = async (cents) => {
    if (cents === null) {
      refusal.textContent = gettext("Type an amount.");
      return;
    }
    if (busy) return;
    busy = true;
    try {
      const refused = await submit(cents);
      if (refused) refusal.textContent = refused;
      else ui.close();
    } finally {
      busy = false;
    }
  };
  const keys = h("div", {class: "keys"},
    ["7", "8", "9", "4", "5", "6", "1", "2", "3", ".", "0", "back"].map((key) =>
      button(key === "back" ? "⌫" : key, press(key), {
        class: "key", "data-key": key,
        "aria-label": key === "back" ? gettext("Delete") : key,
      })));
  const quicks = h("div", {class: "quick"}, quick.map(({label, amount, role}) =>
    button([h("span", {}, label), h("b", {}, money(amount))], () => enter(amount), {
      class: "quick-amount", "data-quick": role || "",
    })));
  const body = h("div", {class: "keypad"},
    h("div", {class: "keypad-top"}, display, refusal),
    extra,
    h("div", {class: "keypad-body"}, keys, quicks),
    h("div", {class: "row"},
      button(gettext("Cancel"), () => ui.close(), {class: "quiet", "data-action": "keypad-cancel"}),
      button(confirmLabel || gettext("OK"), () => enter(parseAmount(typed)), {
        class: "primary", "data-action": "keypad-ok",
      })));
  const ui = sheet(title, body, {wide: true, name});
  show();
  return ui;
}
