<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use GuzzleHttp\Psr7\Response;
use Keygate\Client\Model\ApiKeyStatus;
use Keygate\Client\Model\CreateKeyRequest;
use Keygate\Client\Model\CreateKeyRequestRateLimit;
use Keygate\Client\Model\Environment;
use Keygate\Client\Model\PriceLevel;
use Keygate\Client\Model\TaxClass;

final class OperationsTest extends MockClientTestCase
{
    private static function product(): array
    {
        return [
            'id' => 'prod_1', 'sku' => 'KG-00001', 'name' => 'Widget', 'taxClass' => 'standard',
            'images' => [['url' => '/v2/media/products/KG-00001/W.svg', 'alt' => 'Widget', 'width' => 800, 'height' => 800]],
            'price' => ['amount' => 1190, 'net' => 1000, 'vat' => 190, 'gross' => 1190, 'vatRate' => 19, 'vatRateBp' => 1900,
                'currency' => 'EUR', 'source' => 'tier', 'minQuantity' => 1],
            'stock' => ['available' => 7],
        ];
    }

    public function testACallSendsTheKeyTheHeaderParametersAndTheQuery(): void
    {
        $page = ['channel' => 'WEB_DE', 'currency' => 'EUR', 'pricesIncludeVat' => true, 'customer' => 'cus_1', 'data' => [self::product()], 'nextCursor' => null];
        $client = $this->client([self::json(200, $page)]);
        $result = $client->listProducts(channel: 'WEB_DE', customer: 'cus_1', inStock: true, limit: 5);
        $request = $this->history[0]['request'];
        self::assertSame('https://api.example.test/v2/catalog/products?customer=cus_1&inStock=true&limit=5', (string) $request->getUri());
        self::assertSame('Bearer kg_test_abcdefgh_0123456789012345678901234567', $request->getHeaderLine('Authorization'));
        self::assertSame('WEB_DE', $request->getHeaderLine('X-Channel'));
        $product = $result->data[0];
        self::assertSame(['KG-00001', TaxClass::Standard, 1000, 19.0, PriceLevel::Tier, 7], [
            $product->sku, $product->taxClass, $product->price->net, $product->price->vatRate, $product->price->source, $product->stock->available,
        ]);
        self::assertSame(['/v2/media/products/KG-00001/W.svg', 'Widget', 800, 800], [
            $product->images[0]->url, $product->images[0]->alt, $product->images[0]->width, $product->images[0]->height,
        ]);
        self::assertNull($result->nextCursor);
    }

    public function testARequestModelIsSentAsJsonWithEnumValuesAndWithoutUnsetMembers(): void
    {
        $created = [
            'id' => 'key_1', 'prefix' => 'kg_test_abcdefgh', 'name' => 'shop', 'environment' => 'test', 'scopes' => ['article:r'],
            'expiresAt' => null, 'ipAllowlist' => [], 'rateLimit' => ['perMinute' => 60], 'status' => 'active', 'revokedAt' => null,
            'expired' => false, 'expiryReminder' => null, 'lastCallAt' => null, 'createdAt' => '2026-11-26T11:00:00.000Z',
            'updatedAt' => '2026-11-26T11:00:00.000Z', 'version' => 1, 'rotation' => ['inProgress' => false, 'secrets' => []],
            'identityId' => null, 'planId' => null, 'limits' => [], 'quotas' => [], 'credits' => null,
            'secret' => 'kg_test_abcdefgh_0123456789012345678901234567',
        ];
        $client = $this->client([self::json(201, $created)]);
        $key = $client->createKey(new CreateKeyRequest(
            name: 'shop',
            scopes: ['article:r'],
            environment: Environment::Test,
            rateLimit: new CreateKeyRequestRateLimit(perMinute: 60),
        ));
        $request = $this->history[0]['request'];
        self::assertSame('POST', $request->getMethod());
        self::assertSame('application/json', $request->getHeaderLine('Content-Type'));
        self::assertSame(
            ['name' => 'shop', 'scopes' => ['article:r'], 'environment' => 'test', 'rateLimit' => ['perMinute' => 60]],
            json_decode((string) $request->getBody(), true),
        );
        self::assertSame([Environment::Test, ApiKeyStatus::Active, '2026-11-26 11:00:00'], [$key->environment, $key->status, $key->createdAt->format('Y-m-d H:i:s')]);
        self::assertSame('kg_test_abcdefgh_0123456789012345678901234567', $key->secret);
    }

    public function testAnArrayBodyIsSentAsGivenAndAnEmptyBodyAsAnEmptyObject(): void
    {
        $order = ['id' => 'ord_1'];
        $client = $this->client([self::json(200, ['items' => []]), new Response(202, [], '')]);
        $client->send('POST', '/v2/auth/keys/{id}/scopes', ['id' => 'key_1'], [], [], ['scopes' => ['article:r']]);
        self::assertSame('{"scopes":["article:r"]}', (string) $this->history[0]['request']->getBody());
        self::assertNull($client->send('POST', '/v2/orders/{id}:cancel', ['id' => $order['id']], [], [], new \stdClass()));
        self::assertSame('{}', (string) $this->history[1]['request']->getBody());
    }

    public function testPathParametersAreEncoded(): void
    {
        $client = $this->client([new Response(204)]);
        $client->deletePrice('price/../1 2');
        self::assertSame('/v2/prices/price%2F..%2F1%202', $this->history[0]['request']->getUri()->getPath());
    }

    public function testEveryOperationOfTheDocumentIsAMethodOfTheClient(): void
    {
        $document = json_decode((string) file_get_contents(__DIR__ . '/../../../openapi/openapi.json'), true);
        $missing = [];
        foreach ($document['paths'] as $operations) {
            foreach ($operations as $operation) {
                if (is_array($operation) && isset($operation['operationId']) && !method_exists(\Keygate\Client\KeygateClient::class, $operation['operationId'])) {
                    $missing[] = $operation['operationId'];
                }
            }
        }
        self::assertSame([], $missing);
    }
}
