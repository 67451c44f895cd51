<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\Exception\WebhookVerificationException;
use Keygate\Client\Model\CreateKeyRequest;
use Keygate\Client\Model\CreateWebhookEndpointRequest;
use Keygate\Client\Model\EventType;
use Keygate\Client\Model\RotateWebhookSecretRequest;
use Keygate\Client\Model\SetStockRequest;
use Keygate\Client\Model\StockEventDataReason;
use Keygate\Client\Model\StockUpdatedEvent;
use Keygate\Client\Model\UpdateWebhookEndpointRequest;
use Keygate\Client\Model\WebhookDeliveryStatus;
use Keygate\Client\Webhook;

/** Real deliveries from commerce to a receiver run with `php -S`, verified by `Webhook::verify`. */
final class WebhooksTest extends SystemTestCase
{
    /** @var resource|null */
    private static $server = null;
    private static string $dir = '';
    private static string $url = '';

    public static function setUpBeforeClass(): void
    {
        self::$dir = sys_get_temp_dir() . '/keygate-php-receiver-' . bin2hex(random_bytes(6));
        mkdir(self::$dir);
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) stream_socket_get_name($probe, false), strlen('127.0.0.1:'));
        fclose($probe);
        self::$server = proc_open(
            [PHP_BINARY, '-S', "127.0.0.1:{$port}", __DIR__ . '/receiver.php'],
            [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            null,
            ['KEYGATE_RECEIVER_DIR' => self::$dir] + getenv(),
        );
        self::$url = "http://127.0.0.1:{$port}/hooks";
        self::eventually(static fn () => @fsockopen('127.0.0.1', $port) ?: null, 10);
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$server !== null) {
            proc_terminate(self::$server);
            proc_close(self::$server);
        }
        array_map('unlink', glob(self::$dir . '/*') ?: []);
        @rmdir(self::$dir);
    }

    /** @return list<array{headers: array<string, string>, body: string, verdict: string}> */
    private static function received(): array
    {
        $files = glob(self::$dir . '/*.json') ?: [];
        sort($files);
        return array_map(static fn (string $f) => json_decode((string) file_get_contents($f), true), $files);
    }

    private static function trust(string ...$secrets): void
    {
        file_put_contents(self::$dir . '/secrets', implode("\n", $secrets));
    }

    public function testARealDeliveryVerifiesAndATamperedOneDoesNot(): void
    {
        $admin = self::admin();
        $hooks = self::clientFor($admin->createKey(new CreateKeyRequest(name: 'php-hooks', scopes: ['webhook:rw', 'stock:rw']))->secret);
        $endpoint = $hooks->createWebhookEndpoint(new CreateWebhookEndpointRequest(url: self::$url, eventTypes: ['stock.updated']));
        self::trust($endpoint->secret);

        $hooks->setStock('KG-00010', new SetStockRequest(onHand: 41));
        $delivery = self::eventually(static function () use ($hooks, $endpoint) {
            $page = $hooks->listWebhookDeliveries($endpoint->id);
            return ($page->data[0] ?? null)?->status === WebhookDeliveryStatus::Succeeded ? $page->data[0] : null;
        });
        self::assertSame('stock.updated', $delivery->eventType);
        [$received] = self::received();
        self::assertSame('verified stock.updated', $received['verdict'], 'the receiver answered 204 because Webhook::verify passed');

        $verified = Webhook::verify([$endpoint->secret], $received['headers'], $received['body']);
        self::assertSame(['stock.updated', 'KG-00010', 41], [$verified->payload['type'], $verified->payload['data']['sku'], $verified->payload['data']['new']['onHand']]);
        $event = $verified->event();
        self::assertInstanceOf(StockUpdatedEvent::class, $event);
        self::assertSame([StockEventDataReason::Set, 41], [$event->data->reason, $event->data->new->onHand]);
        try {
            Webhook::verify([$endpoint->secret], $received['headers'], str_replace('41', '42', $received['body']));
            self::fail('a tampered body verified');
        } catch (WebhookVerificationException $e) {
            self::assertSame('NO_MATCHING_SIGNATURE', $e->errorCode);
        }

        $hooks->resendWebhookDelivery($delivery->id);
        $again = self::eventually(static fn () => self::received()[1] ?? null);
        self::assertSame($received['headers']['webhook-id'] ?? $received['headers']['Webhook-Id'], $again['headers']['webhook-id'] ?? $again['headers']['Webhook-Id'], 'a resend keeps the webhook-id');
        self::assertSame('verified stock.updated', $again['verdict']);
    }

    public function testDuringASecretRotationBothSecretsVerify(): void
    {
        $admin = self::admin();
        $hooks = self::clientFor($admin->createKey(new CreateKeyRequest(name: 'php-hooks-rotating', scopes: ['webhook:rw']))->secret);
        $endpoint = $hooks->createWebhookEndpoint(new CreateWebhookEndpointRequest(url: self::$url, eventTypes: ['order.created']));
        $rotated = $hooks->rotateWebhookSecret($endpoint->id, new RotateWebhookSecretRequest(overlapHours: 1));
        $before = count(self::received());
        self::trust($endpoint->secret);
        $test = $hooks->sendWebhookTest($endpoint->id);
        self::assertSame($test->id, self::eventually(static function () use ($hooks, $endpoint, $test) {
            foreach ($hooks->listWebhookDeliveries($endpoint->id)->data as $d) {
                if ($d->id === $test->id && $d->status === WebhookDeliveryStatus::Succeeded) {
                    return $d->id;
                }
            }
            return null;
        }));
        $received = array_slice(self::received(), $before);
        self::assertSame('verified webhook.test', $received[0]['verdict'], 'the old secret still verifies during the overlap');
        self::assertSame('webhook.test', Webhook::verify([$rotated->secret], $received[0]['headers'], $received[0]['body'])->payload['type']);

        $hooks->closeOldWebhookSecret($endpoint->id);
        $updated = $hooks->updateWebhookEndpoint($endpoint->id, new UpdateWebhookEndpointRequest(enabled: false));
        self::assertFalse($updated->enabled);
        self::assertContains($endpoint->id, array_map(static fn ($e) => $e->id, $hooks->listWebhookEndpoints()->data));
        self::assertNull($hooks->getWebhookEndpoint($endpoint->id)->secretRotation);
        $hooks->deleteWebhookEndpoint($endpoint->id);
        self::assertNotContains($endpoint->id, array_map(static fn ($e) => $e->id, $hooks->listWebhookEndpoints()->data));
        self::assertContains(EventType::OrderCreated, $hooks->listWebhookEventTypes()->data);
    }
}
