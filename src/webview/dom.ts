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

/**
 * Keeps keyboard focus on the same control (by `focusKey`) across redraws that replace a page's
 * DOM. While a redraw leaves it out or disabled, focus waits on the heading rather than on
 * another action Enter would run, and returns when the control does.
 */
export class FocusKeeper {
  /** The control focus waits to return to, and the element it waits on. */
  #pending: { key: string; index: number } | undefined;
  #waitingOn: HTMLElement | undefined;

  /** Call before replacing `root`'s children; returns what {@link restore} needs. */
  remember(root: HTMLElement): { key: string; index: number } | undefined | null {
    const active = document.activeElement;
    const pending = this.#pending;
    const waiting = active !== null && active === this.#waitingOn;
    this.#pending = undefined;
    this.#waitingOn = undefined;
    if (!(active instanceof HTMLElement) || !root.contains(active)) return undefined;
    if (waiting && pending) return pending;
    const key = active.dataset.focusKey;
    return key === undefined ? null : { key, index: keyed(root, key).indexOf(active) };
  }

  /**
   * Call after the redraw with what {@link remember} returned: `undefined` when focus was
   * elsewhere (nothing to do), `null` when it was in the page on nothing keyed.
   */
  restore(root: HTMLElement, place: { key: string; index: number } | undefined | null): void {
    if (place === undefined) return;
    if (place !== null) {
      const matches = keyed(root, place.key);
      const target = matches[place.index] ?? matches[0];
      if (target && !(target instanceof HTMLButtonElement && target.disabled)) {
        target.focus();
        return;
      }
    }
    const heading = root.querySelector<HTMLElement>('h1') ?? root;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    if (place !== null) {
      this.#pending = place;
      this.#waitingOn = heading;
    }
  }
}

function keyed(root: HTMLElement, key: string): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`)];
}

/** A message for {@link Announcer}: `urgent` ones interrupt (failures), others wait their turn. */
export interface Announcement {
  text: string;
  urgent?: boolean;
}

/**
 * The page's live regions, outside the part a redraw replaces: an alert inserted on every
 * redraw would be read every time. A message is read when it appears, not while it stays.
 */
export class Announcer {
  readonly #polite: HTMLElement;
  readonly #urgent: HTMLElement;
  #showing = new Set<string>();
  /** What each region last said, so it can be emptied once the page no longer shows it. */
  readonly #said = new Map<HTMLElement, readonly string[]>();

  constructor(parent: HTMLElement = document.body) {
    this.#polite = el('div', { className: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.#urgent = el('div', { className: 'sr-only', attrs: { role: 'alert', 'aria-live': 'assertive' } });
    parent.append(this.#polite, this.#urgent);
  }

  /** The messages the page shows after this draw; those it did not show before are read. */
  update(messages: readonly (Announcement | false | null | undefined)[]): void {
    const now = messages.filter((m): m is Announcement => !!m && m.text !== '');
    const fresh = now.filter((m) => !this.#showing.has(m.text));
    this.#showing = new Set(now.map((m) => m.text));
    const urgent = fresh.filter((m) => m.urgent === true);
    this.#say(this.#urgent, urgent);
    this.#say(
      this.#polite,
      fresh.filter((m) => !urgent.includes(m)),
    );
  }

  #say(region: HTMLElement, messages: readonly Announcement[]): void {
    if (messages.length > 0) {
      // A new element in the region is read as an addition, even when its words equal the last.
      region.replaceChildren(el('p', { text: messages.map((m) => m.text).join(' ') }));
      this.#said.set(
        region,
        messages.map((m) => m.text),
      );
    } else if ((this.#said.get(region) ?? []).every((text) => !this.#showing.has(text))) {
      // Gone from the page: not left behind for someone reading the page later.
      region.replaceChildren();
      this.#said.delete(region);
    }
  }
}

/**
 * Calls `save` after the page scrolls, at most once a frame: the reader's place, kept for when
 * the page is made again.
 */
export function onScroll(save: () => void): void {
  let queued = false;
  window.addEventListener('scroll', () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      save();
    });
  });
}
