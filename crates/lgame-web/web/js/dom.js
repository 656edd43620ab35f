// @ts-check
// The page's one DOM helper: elements built from a tag, attributes and children. Texts always
// go in as text (never as HTML), so nothing the server or a person wrote is read as markup.

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
 * Sets attributes on an element (see {@link Attrs}).
 * @param {Element} node
 * @param {Attrs} attrs
 */
function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
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
