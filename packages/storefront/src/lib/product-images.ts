import 'server-only';
import { storefrontEnv } from './env.ts';
import { type ShownImage, shownImages } from './images.ts';
import { imageOriginsOf } from './site.ts';

/** The images of a catalogue product the page can show (none when the API sends none). */
export function productImages(product: object): ShownImage[] {
  const env = storefrontEnv();
  return shownImages(product, {
    gatewayUrl: env.KEYGATE_BASE_URL,
    imageOrigins: imageOriginsOf(env.STOREFRONT_IMAGE_ORIGINS),
  });
}
