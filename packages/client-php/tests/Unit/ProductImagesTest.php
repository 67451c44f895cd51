<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\Exception\ApiException;

final class ProductImagesTest extends MockClientTestCase
{
    private const IMAGE = ['url' => 'https://cdn.example.com/a.webp', 'alt' => 'Front', 'width' => 640, 'height' => 480];

    public function testSettingImagesPutsTheOrderedListWithTheCallersIdempotencyKey(): void
    {
        $client = $this->client([self::json(200, ['sku' => 'KG-00001', 'images' => [self::IMAGE]])]);
        $result = $client->setProductImages('KG-00001', ['images' => [self::IMAGE]], 'images-1');
        $request = $this->history[0]['request'];
        self::assertSame('PUT', $request->getMethod());
        self::assertSame('/v2/catalog/products/KG-00001/images', $request->getUri()->getPath());
        self::assertSame(['images' => [self::IMAGE]], json_decode((string) $request->getBody(), true));
        self::assertSame('images-1', $request->getHeaderLine('Idempotency-Key'));
        self::assertSame(['KG-00001', 'Front', 640], [$result->sku, $result->images[0]->alt, $result->images[0]->width]);
    }

    public function testAGeneratedImageComesBackAsItsTextAndNullWhenNotModified(): void
    {
        $svg = '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"></svg>';
        $client = $this->client([
            new Response(200, ['Content-Type' => 'image/svg+xml', 'ETag' => '"abc"'], $svg),
            new Response(304, ['ETag' => '"abc"']),
        ]);
        self::assertSame($svg, $client->getProductImage('KG-00001', 'T.svg'));
        self::assertNull($client->getProductImage('KG-00001', 'T.svg', ifNoneMatch: '"abc"'));
        [$first, $second] = [$this->history[0]['request'], $this->history[1]['request']];
        self::assertSame('/v2/media/products/KG-00001/T.svg', $first->getUri()->getPath());
        self::assertStringStartsWith('image/svg+xml', $first->getHeaderLine('Accept'));
        self::assertSame('"abc"', $second->getHeaderLine('If-None-Match'));
    }

    public function testAMissingImageIsThrownAsAProblem(): void
    {
        $client = $this->client([self::problem(404, ['code' => 'ROUTE_NOT_FOUND', 'title' => 'Not found', 'detail' => 'No route.'])]);
        $this->expectException(ApiException::class);
        $client->getProductImage('KG-00001', 'nope.png');
    }
}
