/**
 * DOM helpers the webview pages share (the report panel's and the insights page's). Text goes
 * in through `textContent` only; attribute names are the caller's own, values may be data
 * (an attribute value is never parsed as markup). No page state lives here.
 */
import { ICONS, type IconName } from './icons';

export type Child = Node | string | null | undefined | false;

export interface Props {
  className?: string;
  text?: string;
  /** Attribute names are ours; values may be data (attribute values are never parsed as markup). */
  attrs?: Record<string, string>;
  /** Marks the element so focus can return to it after a redraw. */
  focusKey?: string;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.attrs) for (const [name, value] of Object.entries(props.attrs)) element.setAttribute(name, value);
  if (props.focusKey) element.dataset.focusKey = props.focusKey;
  if (props.text !== undefined) element.textContent = props.text;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** A codicon as inline SVG (src/webview/icons.ts), drawn in the text colour. */
export function icon(name: IconName, extraClass = ''): SVGSVGElement {
  const graphic = svg('svg', {
    class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`,
    viewBox: '0 0 16 16',
    width: '16',
    height: '16',
    fill: 'currentColor',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  for (const path of ICONS[name]) {
    graphic.append(svg('path', path.evenOdd ? { d: path.d, 'fill-rule': 'evenodd' } : { d: path.d }));
  }
  return graphic;
}

export function button(
  label: string,
  iconName: IconName | undefined,
  onClick: () => void,
  options: { className?: string; focusKey?: string; ariaLabel?: string; disabled?: boolean; title?: string } = {},
): HTMLButtonElement {
  const b = el(
    'button',
    { className: options.className ?? 'button', focusKey: options.focusKey, attrs: { type: 'button' } },
    iconName ? icon(iconName) : null,
    el('span', { text: label }),
  );
  if (options.ariaLabel) b.setAttribute('aria-label', options.ariaLabel);
  if (options.title) b.title = options.title;
  b.disabled = options.disabled ?? false;
  b.addEventListener('click', onClick);
  return b;
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  return element;
}
