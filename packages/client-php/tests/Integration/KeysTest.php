<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\Exception\AuthenticationException;
use Keygate\Client\Exception\PermissionException;
use Keygate\Client\KeyExpiryNotice;
use Keygate\Client\KeygateNotice;
use Keygate\Client\Model\ActivityEntryAction;
use Keygate\Client\Model\ChangeScopesRequest;
use Keygate\Client\Model\CreateCartRequest;
use Keygate\Client\Model\CreateKeyRequest;
use Keygate\Client\Model\Environment;
use Keygate\Client\Model\RotateKeyRequest;
use Keygate\Client\Model\Scope;
use Psr\Log\AbstractLogger;

final class KeysTest extends SystemTestCase
{
    public function testCreatesAKeyThatWorksAndIsListed(): void
    {
        $admin = self::admin();
        $key = $admin->createKey(new CreateKeyRequest(name: 'php-shop', scopes: ['article:r'], environment: Environment::Live));
        self::assertMatchesRegularExpression('/^kg_live_/', $key->secret);
        self::assertSame([Scope::ArticleR], $key->scopes);
        $channels = self::clientFor($key->secret)->listChannels();
        self::assertContains('WEB_DE', array_map(static fn ($c) => $c->code, $channels->data));
        $ids = array_map(static fn ($k) => $k->id, $admin->listKeys()->items);
        self::assertContains($key->id, $ids);
        self::assertSame('php-shop', $admin->getKey($key->id)->name);
    }

    public function testAMissingScopeIsAPermissionExceptionNamingTheScope(): void
    {
        $key = self::admin()->createKey(new CreateKeyRequest(name: 'php-reader', scopes: ['article:r']));
        try {
            self::clientFor($key->secret)->createCart(new CreateCartRequest(channel: 'WEB_DE'));
            self::fail('the cart was created');
        } catch (PermissionException $e) {
            self::assertSame([403, 'order:rw'], [$e->status, $e->requiredScope]);
            self::assertNotNull($e->requestId);
        }
    }

    public function testRotatesAKeyAndClosesTheOldSecret(): void
    {
        $admin = self::admin();
        $key = $admin->createKey(new CreateKeyRequest(name: 'php-rotating', scopes: ['article:r']));
        $rotated = $admin->rotateKey($key->id, new RotateKeyRequest(overlapDays: 1));
        self::assertNotSame($key->secret, $rotated->secret);
        self::assertTrue($rotated->rotation->inProgress);
        self::clientFor($key->secret)->listChannels();
        self::clientFor($rotated->secret)->listChannels();

        $closed = $admin->closeOldKeySecret($key->id);
        self::assertFalse($closed->rotation->inProgress);
        try {
            self::clientFor($key->secret)->listChannels();
            self::fail('the old secret still works');
        } catch (AuthenticationException $e) {
            self::assertSame(401, $e->status);
        }
        self::assertNotEmpty(self::clientFor($rotated->secret)->listChannels()->data);
        $actions = array_map(static fn ($entry) => $entry->action, $admin->listKeyActivity($key->id)->items);
        self::assertContains(ActivityEntryAction::KeyRotated, $actions);
        self::assertContains(ActivityEntryAction::KeySecretClosed, $actions);
    }

    public function testAKeyAboutToExpireIsReportedOnceToTheCallbackAndTheLogger(): void
    {
        $expiresOn = (new \DateTimeImmutable('+3 days', new \DateTimeZone('UTC')))->format('Y-m-d');
        $key = self::admin()->createKey(new CreateKeyRequest(name: 'php-expiring', scopes: ['article:r'], expiresAt: $expiresOn));
        $notices = [];
        $logger = new class () extends AbstractLogger {
            /** @var list<string> */
            public array $warnings = [];

            public function log($level, $message, array $context = []): void
            {
                $this->warnings[] = "{$level}: {$message}";
            }
        };
        $client = self::clientFor($key->secret, onNotice: static function (KeygateNotice $notice) use (&$notices): void {
            $notices[] = $notice;
        }, logger: $logger);
        $client->listChannels();
        $client->listChannels();
        self::assertEquals([new KeyExpiryNotice($expiresOn, 4)], $notices);
        self::assertSame(["warning: keygate: the API key expires after {$expiresOn} (4 days left); rotate or replace it"], $logger->warnings);
    }

    public function testChangesScopesReadsUsageAndLogsAndRevokes(): void
    {
        $admin = self::admin();
        $key = $admin->createKey(new CreateKeyRequest(name: 'php-changing', scopes: ['article:r']));
        $changed = $admin->changeKeyScopes($key->id, new ChangeScopesRequest(scopes: ['article:r', 'stock:r']));
        self::assertSame([Scope::ArticleR, Scope::StockR], $changed->scopes);
        $client = self::clientFor($key->secret);
        self::assertSame('KG-00001', $client->getStock('KG-00001')->sku);
        $logs = self::eventually(static function () use ($admin, $key) {
            $items = $admin->listKeyLogs($key->id)->items;
            return $items === [] ? null : $items;
        });
        self::assertSame(['GET', '/v2/stock/KG-00001', 200], [$logs[0]->method, $logs[0]->path, $logs[0]->status]);
        $usage = self::eventually(static function () use ($admin, $key) {
            $usage = $admin->getKeyUsage($key->id);
            return $usage->totals->calls > 0 ? $usage : null;
        });
        self::assertSame($key->id, $usage->keyId);
        $revoked = $admin->revokeKey($key->id);
        self::assertSame('revoked', $revoked->status->value);
        $this->expectException(AuthenticationException::class);
        $client->getStock('KG-00001');
    }
}
