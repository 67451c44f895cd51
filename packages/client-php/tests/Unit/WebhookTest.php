<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\Exception\WebhookVerificationException;
use Keygate\Client\Model\Environment;
use Keygate\Client\Model\WebhookTestEvent;
use Keygate\Client\Webhook;
use PHPUnit\Framework\TestCase;

/** The Standard Webhooks spec's test vector, the one `packages/webhooks` is checked against. */
final class WebhookTest extends TestCase
{
    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    private const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    private const TIMESTAMP = 1614265330;
    private const BODY = '{"test": 2432232314}';
    private const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

    private static function headers(string $signature = self::SIGNATURE): array
    {
        return ['Webhook-Id' => self::ID, 'Webhook-Timestamp' => (string) self::TIMESTAMP, 'Webhook-Signature' => $signature];
    }

    private static function refusal(callable $verify): string
    {
        try {
            $verify();
        } catch (WebhookVerificationException $e) {
            return $e->errorCode;
        }
        self::fail('verified');
    }

    public function testTheSpecVectorVerifies(): void
    {
        $verified = Webhook::verify([self::SECRET], self::headers(), self::BODY, self::TIMESTAMP);
        self::assertSame([self::ID, self::TIMESTAMP, ['test' => 2432232314]], [$verified->id, $verified->timestamp, $verified->payload]);
        self::assertNull($verified->event(), 'the vector\'s body is no keygate event');
    }

    public function testDuringARotationAnyOfTheSecretsAndAnyOfTheSignaturesMayMatch(): void
    {
        $other = 'whsec_' . base64_encode(str_repeat('k', 32));
        $headers = self::headers('v1,' . base64_encode(str_repeat('x', 32)) . ' ' . self::SIGNATURE);
        self::assertSame(self::ID, Webhook::verify([$other, self::SECRET], $headers, self::BODY, self::TIMESTAMP)->id);
    }

    public function testAKeygateEventBecomesItsGeneratedModel(): void
    {
        $body = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-26T12:00:00.000Z","environment":"test","data":{"endpointId":"we_1","message":"hello"}}';
        $secret = 'whsec_' . base64_encode(str_repeat('s', 32));
        $signature = 'v1,' . base64_encode(hash_hmac('sha256', "msg_1.1700000000.{$body}", str_repeat('s', 32), true));
        $event = Webhook::verify([$secret], ['webhook-id' => 'msg_1', 'webhook-timestamp' => '1700000000', 'webhook-signature' => $signature], $body, 1700000000)->event();
        self::assertInstanceOf(WebhookTestEvent::class, $event);
        self::assertSame(['evt_1', Environment::Test, 'hello'], [$event->id, $event->environment, $event->data->message]);
    }

    public function testHeadersAreFoundInAnyCaseAndInServerStyleOrAsLists(): void
    {
        $server = ['HTTP_WEBHOOK_ID' => self::ID, 'HTTP_WEBHOOK_TIMESTAMP' => (string) self::TIMESTAMP, 'HTTP_WEBHOOK_SIGNATURE' => self::SIGNATURE];
        self::assertSame(self::ID, Webhook::verify([self::SECRET], $server, self::BODY, self::TIMESTAMP)->id);
        $psr = ['webhook-id' => [self::ID], 'webhook-timestamp' => [(string) self::TIMESTAMP], 'webhook-signature' => [self::SIGNATURE]];
        self::assertSame(self::ID, Webhook::verify([self::SECRET], $psr, self::BODY, self::TIMESTAMP)->id);
    }

    public function testATamperedBodyOrAWrongSecretIsRefused(): void
    {
        self::assertSame('NO_MATCHING_SIGNATURE', self::refusal(static fn () => Webhook::verify([self::SECRET], self::headers(), '{"test": 2432232315}', self::TIMESTAMP)));
        $wrong = 'whsec_' . base64_encode(str_repeat('w', 24));
        self::assertSame('NO_MATCHING_SIGNATURE', self::refusal(static fn () => Webhook::verify([$wrong], self::headers(), self::BODY, self::TIMESTAMP)));
        self::assertSame('NO_MATCHING_SIGNATURE', self::refusal(static fn () => Webhook::verify([self::SECRET], self::headers('v2,' . substr(self::SIGNATURE, 3)), self::BODY, self::TIMESTAMP)));
    }

    public function testTimestampsMoreThanFiveMinutesOffAreRefused(): void
    {
        self::assertSame(self::ID, Webhook::verify([self::SECRET], self::headers(), self::BODY, self::TIMESTAMP + 300)->id);
        self::assertSame('TIMESTAMP_TOO_OLD', self::refusal(static fn () => Webhook::verify([self::SECRET], self::headers(), self::BODY, self::TIMESTAMP + 301)));
        self::assertSame('TIMESTAMP_TOO_NEW', self::refusal(static fn () => Webhook::verify([self::SECRET], self::headers(), self::BODY, self::TIMESTAMP - 301)));
        self::assertSame('INVALID_TIMESTAMP', self::refusal(static fn () => Webhook::verify([self::SECRET], ['webhook-timestamp' => 'soon'] + self::headers(), self::BODY, self::TIMESTAMP)));
    }

    public function testMissingHeadersAndBadSecretsAreRefused(): void
    {
        self::assertSame('MISSING_HEADERS', self::refusal(static fn () => Webhook::verify([self::SECRET], ['Webhook-Id' => self::ID], self::BODY, self::TIMESTAMP)));
        self::assertSame('INVALID_SECRET', self::refusal(static fn () => Webhook::verify(['whsec_not base64!'], self::headers(), self::BODY, self::TIMESTAMP)));
    }
}
