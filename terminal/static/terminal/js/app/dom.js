// A few lines to build the screens with, instead of a framework.

// h("button", {class: "big", onclick: f}, "Fold") -> <button class="big">Fold</button>
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

// A button: a large touch target that does `action` on one tap.
export function button(label, action, attrs = {}) {
  return h("button", {type: "button", ...attrs, onclick: action}, label);
}

// A sheet over the screen (a dialog); closed by `close()` or its own buttons.
export function sheet(title, body, {onclose, wide = false, name = null} = {}) {
  const dialog = h("dialog", {class: wide ? "sheet wide" : "sheet", dataset: {sheet: name || ""}});
  const close = () => {
    dialog.close();
    dialog.remove();
    if (onclose) onclose();
  };
  dialog.append(h("h2", {}, title), body);
  document.body.append(dialog);
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  dialog.showModal();
  return {dialog, close};
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}
