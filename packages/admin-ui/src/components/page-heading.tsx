import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The page's h1: sets the document title and takes focus after a client-side navigation. */
export function PageHeading(props: { title: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · keygate admin`;
  }, [props.title]);
  useEffect(() => {
    // Screen readers and keyboard users start on the new page, not on the link they left.
    if (document.activeElement === document.body || document.activeElement?.closest('nav, .page-links')) {
      ref.current?.focus();
    }
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} class="page-heading">
      {props.children ?? props.title}
    </h1>
  );
}
