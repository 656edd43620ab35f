// @ts-check
// The page's one DOM helper: elements built from a tag, attributes and children. Texts always
// go in as text (never as HTML), so nothing the server or a person wrote is read as markup.
// And the views' drawing: a panel is a function of its slice of the state, `(slice) => Node`,
// and `panel` lays what it returns onto the element in the page (`morph`), so that an
// element that stays keeps its identity: its focus, a field's text, a live region, a picture
// already loaded, and no change of height but what the state changed.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Attributes: `class`, `text` (the text content), `on<event>` (a listener), `true` for an
 * attribute without a value; `null`, `undefined` and `false` leave the attribute out.
 * @typedef {{ [name: string]: string | number | boolean | null | undefined | ((event: any) => unknown) }} Attrs
 */

/**
 * A child: a node or a text; `null`, `undefined` and `false` are left out, arrays flattened.
 * @typedef {Node | string | number | null | undefined | false | ChildList} Child
 * @typedef {Array<Child>} ChildList
 */

/**
 * The listeners given as `on<event>` attributes, by element and event: one listener per event
 * is bound, and calls the element's current one, so that `morph` can hand an element the
 * listeners of the one drawn anew (they close over the new state).
 * @type {WeakMap<Element, Map<string, ((event: any) => unknown) | null>>}
 */
const handlers = new WeakMap();

/**
 * @param {Element} node
 * @param {string} event
 * @param {((event: any) => unknown) | null} f
 */
function listen(node, event, f) {
  let map = handlers.get(node);
  if (!map) handlers.set(node, (map = new Map()));
  if (!map.has(event)) {
    node.addEventListener(event, (e) => {
      const current = handlers.get(node)?.get(event);
      if (current) current(e);
    });
  }
  map.set(event, f);
}

/**
 * Sets attributes on an element (see {@link Attrs}).
 * @param {Element} node
 * @param {Attrs} attrs
 */
function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') listen(node, name.slice(2), value);
    else if (name === 'text') node.textContent = String(value);
    else if (name === 'class') node.setAttribute('class', String(value));
    else node.setAttribute(name, value === true ? '' : String(value));
  }
}

/**
 * Appends children (see {@link Child}).
 * @param {Element} node
 * @param {Child[]} children
 */
function appendChildren(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendChildren(node, child);
    else node.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * An HTML element with attributes and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  appendChildren(node, children);
  return node;
}

/**
 * An SVG element with attributes and children.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  appendChildren(node, children);
  return node;
}

/**
 * An SVG element appended to `parent`: drawings are built shape by shape.
 * @template {keyof SVGElementTagNameMap} K
 * @param {Element} parent
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @returns {SVGElementTagNameMap[K]}
 */
export function draw(parent, tag, attrs = {}) {
  const node = svg(tag, attrs);
  parent.appendChild(node);
  return node;
}

/**
 * Whether `next` is drawn onto `old` (rather than replacing it): same kind of node, same tag,
 * and the same `id` and `data-key` (a list whose items move keys them).
 * @param {Node} old
 * @param {Node} next
 */
function same(old, next) {
  if (old.nodeType !== next.nodeType || old.nodeName !== next.nodeName) return false;
  if (!(old instanceof Element) || !(next instanceof Element)) return true;
  return old.id === next.id && old.getAttribute('data-key') === next.getAttribute('data-key');
}

/**
 * Makes `old`'s attributes `next`'s. A `<details>`' `open` is the person's (only `next`
 * opening it counts), and so is a form field's value: it follows `next`'s only when `next`
 * sets one (a `value` attribute) and the field does not have the focus (what is being typed
 * stays).
 * @param {Element} old
 * @param {Element} next
 */
function morphAttributes(old, next) {
  for (const { name } of [...old.attributes]) {
    if (!next.hasAttribute(name) && !(name === 'open' && old instanceof HTMLDetailsElement)) old.removeAttribute(name);
  }
  for (const { name, value } of [...next.attributes]) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  const field = old instanceof HTMLInputElement || old instanceof HTMLTextAreaElement;
  if (field && next.hasAttribute('value') && old !== document.activeElement) {
    const value = /** @type {HTMLInputElement} */ (next).value;
    if (old.value !== value) old.value = value;
  }
  const listeners = handlers.get(next);
  for (const event of handlers.get(old)?.keys() || []) {
    if (!listeners || !listeners.has(event)) listen(old, event, null);
  }
  for (const [event, f] of listeners || []) listen(old, event, f);
}

/**
 * Draws `next` (a node just built, not in the page) onto `old` (in the page): what is the
 * same element in both (see `same`, child by child in order) is kept and given `next`'s
 * attributes, texts and listeners; what differs is replaced, what is extra added or removed.
 * `old` itself is kept whatever its attributes. Returns `old`.
 * @template {Node} N
 * @param {N} old
 * @param {Node} next
 * @returns {N}
 */
export function morph(old, next) {
  if (old instanceof Element && next instanceof Element) morphAttributes(old, next);
  else if (old.nodeType === Node.TEXT_NODE) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return old;
  }
  const incoming = [...next.childNodes];
  let child = old.firstChild;
  for (const n of incoming) {
    if (child && same(child, n)) {
      morph(child, n);
      child = child.nextSibling;
    } else if (child) {
      const replaced = child;
      child = child.nextSibling;
      old.replaceChild(n, replaced);
    } else {
      old.appendChild(n);
    }
  }
  while (child) {
    const extra = child;
    child = child.nextSibling;
    old.removeChild(extra);
  }
  return old;
}

/**
 * A panel of a view: `view(slice)` draws it whole from its slice of the state, and the
 * returned function redraws it onto `root` (kept in the page: its place, its role) whenever
 * the slice it is given differs (compared as JSON) from the last one drawn.
 * @template S
 * @param {Element} root
 * @param {(slice: S) => Element} view returns an element of `root`'s tag
 * @returns {(slice: S) => void}
 */
export function panel(root, view) {
  let last = '';
  return (slice) => {
    const key = JSON.stringify(slice);
    if (key === last) return;
    last = key;
    const focused = document.activeElement;
    const place = focused && focused !== root && root.contains(focused) ? placeOf(root, focused) : null;
    morph(root, view(slice));
    // The focused element was replaced (not kept): its successor in the same place takes it.
    if (place && focused && !focused.isConnected) {
      const successor = root.querySelectorAll(place.selector)[place.index];
      if (successor instanceof HTMLElement || successor instanceof SVGElement) successor.focus({ preventScroll: true });
    }
  };
}

/**
 * Where `node` stands in `root`, as a key that outlives a redraw: its tag and classes, and
 * which of `root`'s elements so named it is.
 * @param {Element} root
 * @param {Element} node
 */
function placeOf(root, node) {
  const selector = [CSS.escape(node.localName), ...[...node.classList].map((c) => `.${CSS.escape(c)}`)].join('');
  return { selector, index: [...root.querySelectorAll(selector)].indexOf(node) };
}
