// The pairing screen: the one-time code the floor made for this table (typed, or
// opened from the QR code as /terminal/?pair=CODE) makes this tablet the table's
// terminal; its key stays in the tablet's IndexedDB.

import {button, h} from "./dom.js";
import {gettext} from "./i18n.js";
import {describeError} from "./errors.js";

export function renderPairing(app) {
  const input = h("input", {
    id: "pair-code", name: "code", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", inputmode: "text", maxlength: "12", placeholder: "XXXX-XXXX",
    "aria-label": gettext("Pairing code"),
  });
  const submit = async () => {
    const code = input.value.trim();
    if (!code) return;
    go.disabled = true;
    await app.pair(code);
    go.disabled = false;
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") submit();
  });
  const go = button(gettext("Pair this tablet"), submit, {class: "primary", "data-action": "pair"});
  const message = app.message;
  let said = null;
  if (message) {
    const text = message.kind === "refused" ? describeError(message.error) : message.text;
    said = h("p", {class: message.kind === "notice" ? "notice" : "refusal", role: "alert",
      "data-role": "message"}, text);
  }
  const waiting = app.outbox ? app.outbox.waiting().length : 0;
  return [
    h("main", {class: "main pairing"},
      h("h1", {}, gettext("Pair this tablet with a table")),
      h("p", {}, gettext(
        "A floor manager makes a one-time code for the table on the floor screen. Type it here, or scan its QR code with this tablet.")),
      input,
      go,
      said,
      waiting ? h("p", {class: "notice"}, gettext(
        "Hands dealt on this tablet still wait for the server: they are posted once it is paired with their table again.")) : null),
    h("footer", {class: "foot"}),
  ];
}
