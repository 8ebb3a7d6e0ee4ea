// The terminal's words and numbers in the dealer's language.
//
// The words come from Django's JavaScript catalogue (the djangojs domain) of the
// chosen language, loaded as a classic script that defines `django.gettext` and
// friends; the service worker keeps all three catalogues, so a language can be
// switched with the network gone. Money is integer cents, formatted by the
// browser's CLDR data (Intl) from a decimal string, never through a float.

export const LANGUAGE_NAMES = {en: "English", fi: "Suomi", ko: "한국어"};
const LOCALES = {en: "en-GB", fi: "fi-FI", ko: "ko-KR"};

let current = "en";
let currency = "EUR";

function django() {
  return globalThis.django || null;
}

export function gettext(msgid) {
  const d = django();
  return d ? d.gettext(msgid) : msgid;
}

export function gettext_noop(msgid) {
  return msgid;
}

export function ngettext(singular, plural, count) {
  const d = django();
  if (d) return d.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

// `interpolate(gettext("Seat %(seat)s"), {seat: 4})`, as Django's own.
export function interpolate(text, params) {
  return text.replace(/%\(([a-z_]+)\)s/g, (whole, name) =>
    name in params ? String(params[name]) : whole);
}

export function language() {
  return current;
}

export function locale() {
  return LOCALES[current] || current;
}

export function setCurrency(code) {
  if (code) currency = code;
}

// Load the catalogue of `code` (its address has LANG in place of the code).
export function loadCatalogue(template, code) {
  current = code;
  document.documentElement.lang = code;
  return new Promise((resolve) => {
    const old = document.getElementById("catalogue");
    if (old) old.remove();
    if (globalThis.django) {
      globalThis.django.catalog = {};
    }
    const script = document.createElement("script");
    script.id = "catalogue";
    script.src = template.replace("LANG", code);
    // Without its catalogue the terminal still works, in English.
    script.onload = () => resolve(true);
    script.onerror = () => resolve(false);
    document.head.append(script);
  });
}

// The language to start in: the one chosen on this tablet, else the browser's.
export function pickLanguage(saved, available, fallback) {
  if (saved && available.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (available.includes(code)) return code;
  }
  return fallback;
}

function decimal(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${sign}${units}.${rest}`;
}

// `money(2450)` -> "€24.50" (or "24,50 €", "€24.50" in Korean); whole amounts
// without their cents, as the room reads its stakes.
export function money(cents) {
  if (cents === null || cents === undefined) return "—";
  if (!Number.isSafeInteger(cents)) throw new TypeError(`not cents: ${cents}`);
  const whole = cents % 100 === 0;
  const format = new Intl.NumberFormat(locale(), {
    style: "currency",
    currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return format.format(decimal(cents));
}

// The amount typed on the keypad ("12", "12.5", "12.50") in cents, or null.
export function parseAmount(typed) {
  const match = /^(\d{1,9})(?:[.,](\d{0,2}))?$/.exec(typed);
  if (!match) return null;
  const cents = (match[2] || "").padEnd(2, "0");
  return Number(match[1]) * 100 + Number(cents);
}

export function time(iso) {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), {hour: "2-digit", minute: "2-digit"})
    .format(new Date(iso));
}
