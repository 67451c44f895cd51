import assert from 'node:assert/strict';
import { imageSource, isMediaPath, shownImages } from '../src/lib/images.ts';

const sources = { gatewayUrl: 'http://127.0.0.1:8080', imageOrigins: ['https://cdn.example.com'] };
const image = (url: string, alt = 'A red chair, front view') => ({ url, alt, width: 800, height: 600 });

describe('shownImages()', () => {
  it("shows the API's images in order, with size and alt text, through the shop's relay", () => {
    const product = {
      images: [
        image('/media/products/KG-1/front.webp'),
        image('https://cdn.example.com/kg-1/side.jpg', 'Side view'),
      ],
    };
    assert.deepEqual(shownImages(product, sources), [
      {
        src: '/images/media/products/KG-1/front.webp',
        alt: 'A red chair, front view',
        width: 800,
        height: 600,
      },
      { src: 'https://cdn.example.com/kg-1/side.jpg', alt: 'Side view', width: 800, height: 600 },
    ]);
  });
  it('shows nothing for a product without images (an API from before media)', () => {
    assert.deepEqual(shownImages({}, sources), []);
    assert.deepEqual(shownImages({ images: null }, sources), []);
  });
  it('keeps an empty alt text, which marks a decorative image', () => {
    const [shown] = shownImages({ images: [image('/media/a.svg', '  ')] }, sources);
    assert.equal(shown?.alt, '');
  });
  it('leaves out malformed entries, repeats and images the CSP would block', () => {
    const product = {
      images: [
        { url: '/media/a.svg', alt: 'x' },
        image('/media/a.svg'),
        image('/media/a.svg'),
        image('https://elsewhere.example/a.png'),
        image('http://cdn.example.com/a.png'),
        image('javascript:alert(1)'),
        image('/v2/auth/keys'),
      ],
    };
    assert.deepEqual(
      shownImages(product, sources).map((shown) => shown.src),
      ['/images/media/a.svg'],
    );
  });
});

describe('imageSource()', () => {
  it("relays the gateway's media paths, absolute or root-relative, with their query", () => {
    assert.equal(imageSource('http://127.0.0.1:8080/media/x.webp?v=2', sources), '/images/media/x.webp?v=2');
    assert.equal(imageSource('/v2/media/x.webp', sources), '/images/v2/media/x.webp');
  });
  it('refuses paths that leave the media folder', () => {
    assert.equal(imageSource('/media/../v2/auth/keys', sources), null);
    assert.equal(isMediaPath('/media/%2e%2e/v2/keys'), false);
    assert.equal(isMediaPath('/media/a/../../v2/keys'), false);
    assert.equal(isMediaPath('/media/'), false);
    assert.equal(isMediaPath('/media/products/kg-1.svg'), true);
  });
});
