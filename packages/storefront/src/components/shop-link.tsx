'use client';

import Link from 'next/link';
import { type ComponentProps, useState } from 'react';

/**
 * The shop's internal link: a `next/link` that prefetches on intent (pointer over it, a touch
 * starting on it, keyboard focus) instead of as soon as it is on screen. Every page is dynamic, so
 * a viewport prefetch is a server render per visible link, and the browser decodes each answer on
 * the main thread while the page is still starting up: that work is what Lighthouse counts as
 * Total Blocking Time on a phone (issue #46), for links most visitors never follow. Once the
 * visitor shows intent, Next's own prefetch runs as before.
 */
export function ShopLink({ onMouseEnter, onTouchStart, onFocus, ...props }: ComponentProps<typeof Link>) {
  const [hasIntent, setHasIntent] = useState(false);
  return (
    <Link
      {...props}
      prefetch={hasIntent ? null : false}
      onMouseEnter={(event) => {
        setHasIntent(true);
        onMouseEnter?.(event);
      }}
      onTouchStart={(event) => {
        setHasIntent(true);
        onTouchStart?.(event);
      }}
      onFocus={(event) => {
        setHasIntent(true);
        onFocus?.(event);
      }}
    />
  );
}
