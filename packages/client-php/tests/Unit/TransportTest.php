<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\Exception\PermissionException;
use Keygate\Client\KeygateClient;
use Nyholm\Psr7\Factory\Psr17Factory;
use Nyholm\Psr7\Response;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/** Any PSR-18 client with PSR-17 factories will do: here nyholm/psr7 and a hand-made client, no Guzzle. */
final class TransportTest extends TestCase
{
    public function testSendsThroughTheGivenPsr18ClientAndFactories(): void
    {
        $transport = new class () implements ClientInterface {
            /** @var list<RequestInterface> */
            public array $sent = [];
            /** @var list<ResponseInterface> */
            public array $answers = [];

            public function sendRequest(RequestInterface $request): ResponseInterface
            {
                $this->sent[] = $request;
                return array_shift($this->answers);
            }
        };
        $transport->answers = [
            new Response(200, ['Content-Type' => 'application/json'], '{"sku":"KG-1","onHand":3,"allocated":1,"available":2}'),
            new Response(403, ['Content-Type' => 'application/problem+json'], json_encode([
                'type' => 'https://keygate.dev/problems/missing-scope', 'title' => 'Forbidden', 'status' => 403,
                'detail' => 'This call needs stock:rw.', 'code' => 'MISSING_SCOPE', 'requiredScope' => 'stock:rw',
            ])),
        ];
        $factory = new Psr17Factory();
        $client = new KeygateClient('kg_live_x', 'https://api.example.test', $transport, $factory, $factory);

        self::assertSame(2, $client->getStock('KG-1')->available);
        try {
            $client->adjustStock('KG-1', ['delta' => -1]);
            self::fail('no exception');
        } catch (PermissionException $e) {
            self::assertSame('stock:rw', $e->requiredScope);
        }
        self::assertInstanceOf(\Nyholm\Psr7\Request::class, $transport->sent[1]);
        self::assertSame('{"delta":-1}', (string) $transport->sent[1]->getBody());
        self::assertSame('https://api.example.test/v2/stock/KG-1:adjust', (string) $transport->sent[1]->getUri());
    }

    public function testADumpedClientShowsTheKeysPrefixButNeverTheToken(): void
    {
        $token = 'kg_live_7Hq2xPab_0123456789012345678901234567';
        $dump = print_r(new KeygateClient($token, 'https://api.example.test'), true);
        self::assertStringContainsString('kg_live_7Hq2xPab_…', $dump);
        self::assertStringNotContainsString('0123456789012345678901234567', $dump);
        ob_start();
        var_dump(new KeygateClient($token, 'https://api.example.test'));
        self::assertStringNotContainsString('0123456789012345678901234567', (string) ob_get_clean());
    }
}
