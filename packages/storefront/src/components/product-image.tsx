import type { ShownImage } from '../lib/images.ts';

/**
 * A product picture with its intrinsic size (no layout shift) and alt text. Below the fold it is
 * `loading="lazy"`; the one picture a visitor sees first is fetched early instead. A plain <img>:
 * images are not optimised (next.config.ts), and next/image's inline style would need a CSP
 * exception.
 */
export function ProductImage({ image, isFirstSeen }: { image: ShownImage; isFirstSeen: boolean }) {
  return (
    // biome-ignore lint/performance/noImgElement: no optimiser, and next/image sets an inline style.
    <img
      className="product-image"
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={isFirstSeen ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={isFirstSeen ? 'high' : 'auto'}
    />
  );
}
