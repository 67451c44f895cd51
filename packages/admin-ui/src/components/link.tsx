import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../router.ts';

/** A real link to a route that navigates without a reload (modified clicks open as usual). */
export function Link(props: { to: string; class?: string; children: ComponentChildren; current?: boolean }) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a
      href={`${BASE}${props.to}`}
      class={props.class}
      onClick={onClick}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}
