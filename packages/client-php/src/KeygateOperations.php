<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client;

/**
 * Every operation of the keygate API, one method each, named by its `operationId`. Each sends
 * through `KeygateClient::send()`, so retries, rate-limit state, notices and exceptions apply.
 * Each cursor-paged list also has an `…AutoPaging` method: a generator over all its entries.
 */
trait KeygateOperations
{
    /**
     * Create an API key (`POST /v2/auth/keys`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createKey(
        Model\CreateKeyRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\ApiKeyWithSecret {
        $data = $this->send(
            'POST',
            '/v2/auth/keys',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\ApiKeyWithSecret::fromArray($data);
    }

    /**
     * List API keys (`GET /v2/auth/keys`).
     */
    public function listKeys(
        ?Model\ApiKeyStatus $status = null,
    ): Model\ApiKeyList {
        $data = $this->send(
            'GET',
            '/v2/auth/keys',
            [],
            ['status' => $status?->value],
            [],
            null,
        );
        return Model\ApiKeyList::fromArray($data);
    }

    /**
     * Get an API key (`GET /v2/auth/keys/{id}`).
     * @param string $id The API key id (`key_…`).
     */
    public function getKey(
        string $id,
    ): Model\ApiKey {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\ApiKey::fromArray($data);
    }

    /**
     * Change the plan, identity and overrides of an API key (`PATCH /v2/auth/keys/{id}`).
     * @param string $id The API key id (`key_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateKeyBudget(
        string $id,
        Model\UpdateKeyBudgetRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\ApiKey {
        $data = $this->send(
            'PATCH',
            '/v2/auth/keys/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\ApiKey::fromArray($data);
    }

    /**
     * Revoke an API key (`DELETE /v2/auth/keys/{id}`).
     * @param string $id The API key id (`key_…`).
     */
    public function revokeKey(
        string $id,
    ): Model\ApiKey {
        $data = $this->send(
            'DELETE',
            '/v2/auth/keys/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\ApiKey::fromArray($data);
    }

    /**
     * Replace the scopes of an API key (`POST /v2/auth/keys/{id}/scopes`).
     * @param string $id The API key id (`key_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function changeKeyScopes(
        string $id,
        Model\ChangeScopesRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\ApiKey {
        $data = $this->send(
            'POST',
            '/v2/auth/keys/{id}/scopes',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\ApiKey::fromArray($data);
    }

    /**
     * Rotate an API key without downtime (`POST /v2/auth/keys/{id}:rotate`).
     * @param string $id The API key id (`key_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function rotateKey(
        string $id,
        Model\RotateKeyRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\ApiKeyWithSecret {
        $data = $this->send(
            'POST',
            '/v2/auth/keys/{id}:rotate',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\ApiKeyWithSecret::fromArray($data);
    }

    /**
     * Close the old secret of a rotation now (`POST /v2/auth/keys/{id}:close-old-secret`).
     * @param string $id The API key id (`key_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function closeOldKeySecret(
        string $id,
        Model\CloseOldSecretRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\ApiKey {
        $data = $this->send(
            'POST',
            '/v2/auth/keys/{id}:close-old-secret',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\ApiKey::fromArray($data);
    }

    /**
     * Get the usage of an API key (`GET /v2/auth/keys/{id}/usage`).
     * @param string $id The API key id (`key_…`).
     */
    public function getKeyUsage(
        string $id,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?string $period = null,
    ): Model\KeyUsage {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}/usage',
            ['id' => $id],
            ['from' => $from?->format('Y-m-d\TH:i:s.vP'), 'to' => $to?->format('Y-m-d\TH:i:s.vP'), 'period' => $period],
            [],
            null,
        );
        return Model\KeyUsage::fromArray($data);
    }

    /**
     * List the activity log of an API key (`GET /v2/auth/keys/{id}/activity`).
     * @param string $id The API key id (`key_…`).
     */
    public function listKeyActivity(
        string $id,
        ?Model\ActivityEntryAction $action = null,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\ActivityPage {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}/activity',
            ['id' => $id],
            ['action' => $action?->value, 'from' => $from?->format('Y-m-d\TH:i:s.vP'), 'to' => $to?->format('Y-m-d\TH:i:s.vP'), 'limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\ActivityPage::fromArray($data);
    }

    /**
     * Every entry of `items` of `listKeyActivity` (`GET /v2/auth/keys/{id}/activity`), page after
     * page: a generator that fetches each page (one `listKeyActivity` call) only when the loop reaches
     * it, and stops after the last one.
     * @return \Generator<int, Model\ActivityEntry>
     */
    public function listKeyActivityAutoPaging(
        string $id,
        ?Model\ActivityEntryAction $action = null,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\ActivityPage => $this->listKeyActivity(id: $id, action: $action, from: $from, to: $to, limit: $limit, cursor: $cursor),
            $cursor,
            'items',
            'GET /v2/auth/keys/{id}/activity',
        );
    }

    /**
     * List the API calls of an API key (`GET /v2/auth/keys/{id}/logs`).
     * @param string $id The API key id (`key_…`).
     */
    public function listKeyLogs(
        string $id,
        ?string $secretId = null,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\ApiLogPage {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}/logs',
            ['id' => $id],
            ['secretId' => $secretId, 'from' => $from?->format('Y-m-d\TH:i:s.vP'), 'to' => $to?->format('Y-m-d\TH:i:s.vP'), 'limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\ApiLogPage::fromArray($data);
    }

    /**
     * Every entry of `items` of `listKeyLogs` (`GET /v2/auth/keys/{id}/logs`), page after page: a
     * generator that fetches each page (one `listKeyLogs` call) only when the loop reaches it, and
     * stops after the last one.
     * @return \Generator<int, Model\ApiLogEntry>
     */
    public function listKeyLogsAutoPaging(
        string $id,
        ?string $secretId = null,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\ApiLogPage => $this->listKeyLogs(id: $id, secretId: $secretId, from: $from, to: $to, limit: $limit, cursor: $cursor),
            $cursor,
            'items',
            'GET /v2/auth/keys/{id}/logs',
        );
    }

    /**
     * Get the calls of an API key over time, by outcome (`GET /v2/auth/keys/{id}/analytics`).
     * @param string $id The API key id (`key_…`).
     */
    public function getKeyAnalytics(
        string $id,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?Model\AnalyticsSeriesGranularity $granularity = null,
        ?Model\GetKeyAnalyticsOutcome $outcome = null,
    ): Model\AnalyticsSeries {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}/analytics',
            ['id' => $id],
            ['from' => $from?->format('Y-m-d\TH:i:s.vP'), 'to' => $to?->format('Y-m-d\TH:i:s.vP'), 'granularity' => $granularity?->value, 'outcome' => $outcome?->value],
            [],
            null,
        );
        return Model\AnalyticsSeries::fromArray($data);
    }

    /**
     * Create a plan (`POST /v2/auth/plans`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createPlan(
        Model\CreatePlanRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Plan {
        $data = $this->send(
            'POST',
            '/v2/auth/plans',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Plan::fromArray($data);
    }

    /**
     * List plans (`GET /v2/auth/plans`).
     */
    public function listPlans(): Model\PlanList
    {
        $data = $this->send(
            'GET',
            '/v2/auth/plans',
            [],
            [],
            [],
            null,
        );
        return Model\PlanList::fromArray($data);
    }

    /**
     * Get a plan (`GET /v2/auth/plans/{id}`).
     * @param string $id The plan id (`plan_…`).
     */
    public function getPlan(
        string $id,
    ): Model\Plan {
        $data = $this->send(
            'GET',
            '/v2/auth/plans/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Plan::fromArray($data);
    }

    /**
     * Change a plan (`PATCH /v2/auth/plans/{id}`).
     * @param string $id The plan id (`plan_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updatePlan(
        string $id,
        Model\UpdatePlanRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\Plan {
        $data = $this->send(
            'PATCH',
            '/v2/auth/plans/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\Plan::fromArray($data);
    }

    /**
     * Delete a plan (`DELETE /v2/auth/plans/{id}`).
     * @param string $id The plan id (`plan_…`).
     */
    public function deletePlan(
        string $id,
    ): void {
        $this->send(
            'DELETE',
            '/v2/auth/plans/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
    }

    /**
     * Create an identity (`POST /v2/auth/identities`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createIdentity(
        Model\CreateIdentityRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Identity {
        $data = $this->send(
            'POST',
            '/v2/auth/identities',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Identity::fromArray($data);
    }

    /**
     * List identities (`GET /v2/auth/identities`).
     */
    public function listIdentities(
        ?Model\Environment $environment = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\IdentityPage {
        $data = $this->send(
            'GET',
            '/v2/auth/identities',
            [],
            ['environment' => $environment?->value, 'limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\IdentityPage::fromArray($data);
    }

    /**
     * Every entry of `items` of `listIdentities` (`GET /v2/auth/identities`), page after page: a
     * generator that fetches each page (one `listIdentities` call) only when the loop reaches it, and
     * stops after the last one.
     * @return \Generator<int, Model\Identity>
     */
    public function listIdentitiesAutoPaging(
        ?Model\Environment $environment = null,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\IdentityPage => $this->listIdentities(environment: $environment, limit: $limit, cursor: $cursor),
            $cursor,
            'items',
            'GET /v2/auth/identities',
        );
    }

    /**
     * Get an identity and its keys (`GET /v2/auth/identities/{id}`).
     * @param string $id The identity id (`idt_…`).
     */
    public function getIdentity(
        string $id,
    ): Model\IdentityWithKeys {
        $data = $this->send(
            'GET',
            '/v2/auth/identities/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\IdentityWithKeys::fromArray($data);
    }

    /**
     * Change an identity (`PATCH /v2/auth/identities/{id}`).
     * @param string $id The identity id (`idt_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateIdentity(
        string $id,
        Model\UpdateIdentityRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\Identity {
        $data = $this->send(
            'PATCH',
            '/v2/auth/identities/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\Identity::fromArray($data);
    }

    /**
     * Delete an identity (`DELETE /v2/auth/identities/{id}`).
     * @param string $id The identity id (`idt_…`).
     */
    public function deleteIdentity(
        string $id,
    ): void {
        $this->send(
            'DELETE',
            '/v2/auth/identities/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
    }

    /**
     * Get the calls of an identity over time, by outcome (`GET /v2/auth/identities/{id}/analytics`).
     * @param string $id The identity id (`idt_…`).
     */
    public function getIdentityAnalytics(
        string $id,
        ?\DateTimeInterface $from = null,
        ?\DateTimeInterface $to = null,
        ?Model\AnalyticsSeriesGranularity $granularity = null,
        ?Model\GetKeyAnalyticsOutcome $outcome = null,
    ): Model\AnalyticsSeries {
        $data = $this->send(
            'GET',
            '/v2/auth/identities/{id}/analytics',
            ['id' => $id],
            ['from' => $from?->format('Y-m-d\TH:i:s.vP'), 'to' => $to?->format('Y-m-d\TH:i:s.vP'), 'granularity' => $granularity?->value, 'outcome' => $outcome?->value],
            [],
            null,
        );
        return Model\AnalyticsSeries::fromArray($data);
    }

    /**
     * Get an API key's credits (`GET /v2/auth/keys/{id}/credits`).
     * @param string $id The API key id (`key_…`).
     */
    public function getKeyCredits(
        string $id,
    ): Model\Credits {
        $data = $this->send(
            'GET',
            '/v2/auth/keys/{id}/credits',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Credits::fromArray($data);
    }

    /**
     * Set, add to or take from an API key's credits (`POST /v2/auth/keys/{id}/credits`).
     * @param string $id The API key id (`key_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function changeKeyCredits(
        string $id,
        Model\CreditsOperation|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\Credits {
        $data = $this->send(
            'POST',
            '/v2/auth/keys/{id}/credits',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\Credits::fromArray($data);
    }

    /**
     * Get an identity's credits (`GET /v2/auth/identities/{id}/credits`).
     * @param string $id The identity id (`idt_…`).
     */
    public function getIdentityCredits(
        string $id,
    ): Model\Credits {
        $data = $this->send(
            'GET',
            '/v2/auth/identities/{id}/credits',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Credits::fromArray($data);
    }

    /**
     * Set, add to or take from an identity's credits (`POST /v2/auth/identities/{id}/credits`).
     * @param string $id The identity id (`idt_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function changeIdentityCredits(
        string $id,
        Model\CreditsOperation|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\Credits {
        $data = $this->send(
            'POST',
            '/v2/auth/identities/{id}/credits',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\Credits::fromArray($data);
    }

    /**
     * Get an identity's usage in a period (`GET /v2/auth/identities/{id}/usage`).
     * @param string $id The identity id (`idt_…`).
     */
    public function getIdentityUsage(
        string $id,
        string $period,
    ): Model\PeriodUsage {
        $data = $this->send(
            'GET',
            '/v2/auth/identities/{id}/usage',
            ['id' => $id],
            ['period' => $period],
            [],
            null,
        );
        return Model\PeriodUsage::fromArray($data);
    }

    /**
     * Export the usage of a period for billing (`GET /v2/auth/usage/export`).
     */
    public function exportUsage(
        string $period,
        ?Model\ExportUsageFormat $format = null,
    ): string {
        return $this->sendForText(
            'GET',
            '/v2/auth/usage/export',
            [],
            ['period' => $period, 'format' => $format?->value],
            [],
            'text/csv',
        );
    }

    /**
     * Create an alert endpoint (`POST /v2/auth/alert-endpoints`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createAlertEndpoint(
        Model\CreateAlertEndpointRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\AlertEndpointWithSecret {
        $data = $this->send(
            'POST',
            '/v2/auth/alert-endpoints',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\AlertEndpointWithSecret::fromArray($data);
    }

    /**
     * List alert endpoints (`GET /v2/auth/alert-endpoints`).
     */
    public function listAlertEndpoints(): Model\AlertEndpointList
    {
        $data = $this->send(
            'GET',
            '/v2/auth/alert-endpoints',
            [],
            [],
            [],
            null,
        );
        return Model\AlertEndpointList::fromArray($data);
    }

    /**
     * Get an alert endpoint (`GET /v2/auth/alert-endpoints/{id}`).
     * @param string $id id
     */
    public function getAlertEndpoint(
        string $id,
    ): Model\AlertEndpoint {
        $data = $this->send(
            'GET',
            '/v2/auth/alert-endpoints/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\AlertEndpoint::fromArray($data);
    }

    /**
     * Update an alert endpoint (`PATCH /v2/auth/alert-endpoints/{id}`).
     * @param string $id id
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateAlertEndpoint(
        string $id,
        Model\UpdateAlertEndpointRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\AlertEndpoint {
        $data = $this->send(
            'PATCH',
            '/v2/auth/alert-endpoints/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\AlertEndpoint::fromArray($data);
    }

    /**
     * Delete an alert endpoint (`DELETE /v2/auth/alert-endpoints/{id}`).
     * @param string $id id
     */
    public function deleteAlertEndpoint(
        string $id,
    ): void {
        $this->send(
            'DELETE',
            '/v2/auth/alert-endpoints/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
    }

    /**
     * Rotate an alert endpoint secret (`POST /v2/auth/alert-endpoints/{id}:rotate-secret`).
     * @param string $id id
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function rotateAlertEndpointSecret(
        string $id,
        Model\RotateWebhookSecretRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\AlertEndpointWithSecret {
        $data = $this->send(
            'POST',
            '/v2/auth/alert-endpoints/{id}:rotate-secret',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\AlertEndpointWithSecret::fromArray($data);
    }

    /**
     * Send a test alert (`POST /v2/auth/alert-endpoints/{id}:test`).
     * @param string $id id
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function sendAlertEndpointTest(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\AlertDelivery {
        $data = $this->send(
            'POST',
            '/v2/auth/alert-endpoints/{id}:test',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            null,
        );
        return Model\AlertDelivery::fromArray($data);
    }

    /**
     * List the deliveries of an alert endpoint (`GET /v2/auth/alert-endpoints/{id}/deliveries`).
     * @param string $id id
     */
    public function listAlertDeliveries(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\AlertDeliveryPage {
        $data = $this->send(
            'GET',
            '/v2/auth/alert-endpoints/{id}/deliveries',
            ['id' => $id],
            ['limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\AlertDeliveryPage::fromArray($data);
    }

    /**
     * Every entry of `data` of `listAlertDeliveries` (`GET /v2/auth/alert-endpoints/{id}/deliveries`),
     * page after page: a generator that fetches each page (one `listAlertDeliveries` call) only when
     * the loop reaches it, and stops after the last one.
     * @return \Generator<int, Model\AlertDelivery>
     */
    public function listAlertDeliveriesAutoPaging(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\AlertDeliveryPage => $this->listAlertDeliveries(id: $id, limit: $limit, cursor: $cursor),
            $cursor,
            'data',
            'GET /v2/auth/alert-endpoints/{id}/deliveries',
        );
    }

    /**
     * Resend an alert delivery (`POST /v2/auth/alert-deliveries/{id}:resend`).
     * @param string $id id
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function resendAlertDelivery(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\AlertDelivery {
        $data = $this->send(
            'POST',
            '/v2/auth/alert-deliveries/{id}:resend',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            null,
        );
        return Model\AlertDelivery::fromArray($data);
    }

    /**
     * Stream the alerts (`GET /v2/auth/alert-events:stream`).
     * @param string|null $lastEventID The `id` of the last event received.
     */
    public function streamAlertEvents(
        ?string $lastEventID = null,
    ): void {
        $this->send(
            'GET',
            '/v2/auth/alert-events:stream',
            [],
            [],
            ['Last-Event-ID' => $lastEventID],
            null,
        );
    }

    /**
     * List sales channels (`GET /v2/channels`).
     */
    public function listChannels(): Model\ChannelList
    {
        $data = $this->send(
            'GET',
            '/v2/channels',
            [],
            [],
            [],
            null,
        );
        return Model\ChannelList::fromArray($data);
    }

    /**
     * List the products of a channel with prices (`GET /v2/catalog/products`).
     */
    public function listProducts(
        string $channel,
        ?string $customer = null,
        ?bool $inStock = null,
        ?int $limit = null,
        ?string $cursor = null,
        ?string $q = null,
    ): Model\ProductPage {
        $data = $this->send(
            'GET',
            '/v2/catalog/products',
            [],
            ['customer' => $customer, 'inStock' => ($inStock === null ? null : ($inStock ? 'true' : 'false')), 'limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor, 'q' => $q],
            ['X-Channel' => $channel],
            null,
        );
        return Model\ProductPage::fromArray($data);
    }

    /**
     * Every entry of `data` of `listProducts` (`GET /v2/catalog/products`), page after page: a
     * generator that fetches each page (one `listProducts` call) only when the loop reaches it, and
     * stops after the last one.
     * @return \Generator<int, Model\CatalogProduct>
     */
    public function listProductsAutoPaging(
        string $channel,
        ?string $customer = null,
        ?bool $inStock = null,
        ?int $limit = null,
        ?string $cursor = null,
        ?string $q = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\ProductPage => $this->listProducts(customer: $customer, inStock: $inStock, limit: $limit, cursor: $cursor, q: $q, channel: $channel),
            $cursor,
            'data',
            'GET /v2/catalog/products',
        );
    }

    /**
     * Get one product of a channel with its price (`GET /v2/catalog/products/{sku}`).
     * @param string $sku The product SKU, e.g. KG-00001.
     */
    public function getProduct(
        string $sku,
        string $channel,
        ?string $customer = null,
    ): Model\ProductDetail {
        $data = $this->send(
            'GET',
            '/v2/catalog/products/{sku}',
            ['sku' => $sku],
            ['customer' => $customer],
            ['X-Channel' => $channel],
            null,
        );
        return Model\ProductDetail::fromArray($data);
    }

    /**
     * Set the images of a product (`PUT /v2/catalog/products/{sku}/images`).
     * @param string $sku The product SKU, e.g. KG-00001.
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function setProductImages(
        string $sku,
        Model\SetProductImagesRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\ProductImages {
        $data = $this->send(
            'PUT',
            '/v2/catalog/products/{sku}/images',
            ['sku' => $sku],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\ProductImages::fromArray($data);
    }

    /**
     * Get a generated product image (`GET /v2/media/products/{sku}/{file}`).
     * @param string $sku The product SKU, e.g. KG-00001.
     * @param string $file The product’s initials and `.svg`, as the catalogue’s `url` names it.
     * @param string|null $ifNoneMatch The `ETag` of a copy held; 304 when current.
     */
    public function getProductImage(
        string $sku,
        string $file,
        ?string $ifNoneMatch = null,
    ): ?string {
        return $this->sendForText(
            'GET',
            '/v2/media/products/{sku}/{file}',
            ['sku' => $sku, 'file' => $file],
            [],
            ['If-None-Match' => $ifNoneMatch],
            'image/svg+xml',
        );
    }

    /**
     * Run a GraphQL query (GET) (`GET /v2/graphql`).
     * @param string $query The GraphQL document.
     * @param string|null $variables JSON-encoded variables object.
     * @param string|null $extensions JSON-encoded extensions object.
     */
    public function queryGraphqlGet(
        string $query,
        ?string $variables = null,
        ?string $operationName = null,
        ?string $extensions = null,
    ): Model\GraphqlResponse {
        $data = $this->send(
            'GET',
            '/v2/graphql',
            [],
            ['query' => $query, 'variables' => $variables, 'operationName' => $operationName, 'extensions' => $extensions],
            [],
            null,
        );
        return Model\GraphqlResponse::fromArray($data);
    }

    /**
     * Run a GraphQL query (POST) (`POST /v2/graphql`).
     */
    public function queryGraphql(
        Model\GraphqlRequest|array $body,
    ): Model\GraphqlResponse {
        $data = $this->send(
            'POST',
            '/v2/graphql',
            [],
            [],
            [],
            $body,
        );
        return Model\GraphqlResponse::fromArray($data);
    }

    /**
     * Create a cart (`POST /v2/carts`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createCart(
        Model\CreateCartRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Cart {
        $data = $this->send(
            'POST',
            '/v2/carts',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Cart::fromArray($data);
    }

    /**
     * Get a cart, priced now (`GET /v2/carts/{id}`).
     * @param string $id The cart id (`crt_…`).
     */
    public function getCart(
        string $id,
    ): Model\Cart {
        $data = $this->send(
            'GET',
            '/v2/carts/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Cart::fromArray($data);
    }

    /**
     * Add a product to a cart (`POST /v2/carts/{id}/items`).
     * @param string $id The cart id (`crt_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function addCartItem(
        string $id,
        Model\AddCartItemRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Cart {
        $data = $this->send(
            'POST',
            '/v2/carts/{id}/items',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Cart::fromArray($data);
    }

    /**
     * Change the quantity of a cart line (`PATCH /v2/carts/{id}/items/{sku}`).
     * @param string $id The cart id (`crt_…`).
     * @param string $sku The product SKU, e.g. KG-00001.
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateCartItem(
        string $id,
        string $sku,
        Model\UpdateCartItemRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Cart {
        $data = $this->send(
            'PATCH',
            '/v2/carts/{id}/items/{sku}',
            ['id' => $id, 'sku' => $sku],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Cart::fromArray($data);
    }

    /**
     * Remove a line from a cart (`DELETE /v2/carts/{id}/items/{sku}`).
     * @param string $id The cart id (`crt_…`).
     * @param string $sku The product SKU, e.g. KG-00001.
     */
    public function removeCartItem(
        string $id,
        string $sku,
    ): Model\Cart {
        $data = $this->send(
            'DELETE',
            '/v2/carts/{id}/items/{sku}',
            ['id' => $id, 'sku' => $sku],
            [],
            [],
            null,
        );
        return Model\Cart::fromArray($data);
    }

    /**
     * Check a cart out into an order (`POST /v2/carts/{id}:checkout`).
     * @param string $id The cart id (`crt_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function checkoutCart(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\Order {
        $data = $this->send(
            'POST',
            '/v2/carts/{id}:checkout',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\Order::fromArray($data);
    }

    /**
     * Get an order (`GET /v2/orders/{id}`).
     * @param string $id The order id (`ord_…`).
     */
    public function getOrder(
        string $id,
    ): Model\Order {
        $data = $this->send(
            'GET',
            '/v2/orders/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Order::fromArray($data);
    }

    /**
     * Cancel a placed order (`POST /v2/orders/{id}:cancel`).
     * @param string $id The order id (`ord_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function cancelOrder(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\Order {
        $data = $this->send(
            'POST',
            '/v2/orders/{id}:cancel',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\Order::fromArray($data);
    }

    /**
     * Fulfil a placed order (`POST /v2/orders/{id}:fulfil`).
     * @param string $id The order id (`ord_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function fulfilOrder(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\Order {
        $data = $this->send(
            'POST',
            '/v2/orders/{id}:fulfil',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\Order::fromArray($data);
    }

    /**
     * Create a customer (`POST /v2/customers`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createCustomer(
        Model\CreateCustomerRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Customer {
        $data = $this->send(
            'POST',
            '/v2/customers',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Customer::fromArray($data);
    }

    /**
     * Get a customer (`GET /v2/customers/{id}`).
     * @param string $id The customer id (`cus_…`).
     */
    public function getCustomer(
        string $id,
    ): Model\Customer {
        $data = $this->send(
            'GET',
            '/v2/customers/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Customer::fromArray($data);
    }

    /**
     * Change a customer’s name or tier (`PATCH /v2/customers/{id}`).
     * @param string $id The customer id (`cus_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateCustomer(
        string $id,
        Model\UpdateCustomerRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\Customer {
        $data = $this->send(
            'PATCH',
            '/v2/customers/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\Customer::fromArray($data);
    }

    /**
     * Get a customer’s agreements and effective prices (`GET /v2/customers/{id}/pricing`).
     * @param string $id The customer id (`cus_…`).
     */
    public function getCustomerPricing(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\CustomerPricing {
        $data = $this->send(
            'GET',
            '/v2/customers/{id}/pricing',
            ['id' => $id],
            ['limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\CustomerPricing::fromArray($data);
    }

    /**
     * Each page of `getCustomerPricing` (`GET /v2/customers/{id}/pricing`) in turn, whole: a generator
     * that fetches each page (one `getCustomerPricing` call) only when the loop reaches it, and stops
     * after the last one.
     * @return \Generator<int, Model\CustomerPricing>
     */
    public function getCustomerPricingAutoPaging(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\CustomerPricing => $this->getCustomerPricing(id: $id, limit: $limit, cursor: $cursor),
            $cursor,
            null,
            'GET /v2/customers/{id}/pricing',
        );
    }

    /**
     * Create a price (`POST /v2/prices`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createPrice(
        Model\CreatePriceRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Price {
        $data = $this->send(
            'POST',
            '/v2/prices',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Price::fromArray($data);
    }

    /**
     * Get a price (`GET /v2/prices/{id}`).
     * @param string $id The price id (`prc_…`).
     */
    public function getPrice(
        string $id,
    ): Model\Price {
        $data = $this->send(
            'GET',
            '/v2/prices/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\Price::fromArray($data);
    }

    /**
     * Replace the terms of a price (`PUT /v2/prices/{id}`).
     * @param string $id The price id (`prc_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function replacePrice(
        string $id,
        Model\ReplacePriceRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Price {
        $data = $this->send(
            'PUT',
            '/v2/prices/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Price::fromArray($data);
    }

    /**
     * Delete a price (`DELETE /v2/prices/{id}`).
     * @param string $id The price id (`prc_…`).
     */
    public function deletePrice(
        string $id,
    ): void {
        $this->send(
            'DELETE',
            '/v2/prices/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
    }

    /**
     * Set the VAT rate of a tax class in a country (`PUT /v2/vat-rates/{country}/{taxClass}`).
     * @param string $country ISO 3166-1 alpha-2 country code, e.g. DE.
     * @param Model\TaxClass $taxClass Tax class.
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function setVatRate(
        string $country,
        Model\TaxClass $taxClass,
        Model\SetVatRateRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\VatRate {
        $data = $this->send(
            'PUT',
            '/v2/vat-rates/{country}/{taxClass}',
            ['country' => $country, 'taxClass' => $taxClass->value],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\VatRate::fromArray($data);
    }

    /**
     * Get the stock of a product (`GET /v2/stock/{sku}`).
     * @param string $sku The product SKU, e.g. KG-00001.
     */
    public function getStock(
        string $sku,
    ): Model\Stock {
        $data = $this->send(
            'GET',
            '/v2/stock/{sku}',
            ['sku' => $sku],
            [],
            [],
            null,
        );
        return Model\Stock::fromArray($data);
    }

    /**
     * Set the units on hand (`PUT /v2/stock/{sku}`).
     * @param string $sku The product SKU, e.g. KG-00001.
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function setStock(
        string $sku,
        Model\SetStockRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Stock {
        $data = $this->send(
            'PUT',
            '/v2/stock/{sku}',
            ['sku' => $sku],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Stock::fromArray($data);
    }

    /**
     * Adjust the units on hand (`POST /v2/stock/{sku}:adjust`).
     * @param string $sku The product SKU, e.g. KG-00001.
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function adjustStock(
        string $sku,
        Model\AdjustStockRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\Stock {
        $data = $this->send(
            'POST',
            '/v2/stock/{sku}:adjust',
            ['sku' => $sku],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\Stock::fromArray($data);
    }

    /**
     * List the event types (`GET /v2/webhooks/event-types`).
     */
    public function listWebhookEventTypes(): Model\EventTypeList
    {
        $data = $this->send(
            'GET',
            '/v2/webhooks/event-types',
            [],
            [],
            [],
            null,
        );
        return Model\EventTypeList::fromArray($data);
    }

    /**
     * Create a webhook endpoint (`POST /v2/webhooks/endpoints`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function createWebhookEndpoint(
        Model\CreateWebhookEndpointRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\WebhookEndpointWithSecret {
        $data = $this->send(
            'POST',
            '/v2/webhooks/endpoints',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\WebhookEndpointWithSecret::fromArray($data);
    }

    /**
     * List webhook endpoints (`GET /v2/webhooks/endpoints`).
     */
    public function listWebhookEndpoints(): Model\WebhookEndpointList
    {
        $data = $this->send(
            'GET',
            '/v2/webhooks/endpoints',
            [],
            [],
            [],
            null,
        );
        return Model\WebhookEndpointList::fromArray($data);
    }

    /**
     * Get a webhook endpoint (`GET /v2/webhooks/endpoints/{id}`).
     * @param string $id The webhook endpoint id (`whe_…`).
     */
    public function getWebhookEndpoint(
        string $id,
    ): Model\WebhookEndpoint {
        $data = $this->send(
            'GET',
            '/v2/webhooks/endpoints/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
        return Model\WebhookEndpoint::fromArray($data);
    }

    /**
     * Change a webhook endpoint (`PATCH /v2/webhooks/endpoints/{id}`).
     * @param string $id The webhook endpoint id (`whe_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function updateWebhookEndpoint(
        string $id,
        Model\UpdateWebhookEndpointRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\WebhookEndpoint {
        $data = $this->send(
            'PATCH',
            '/v2/webhooks/endpoints/{id}',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\WebhookEndpoint::fromArray($data);
    }

    /**
     * Delete a webhook endpoint (`DELETE /v2/webhooks/endpoints/{id}`).
     * @param string $id The webhook endpoint id (`whe_…`).
     */
    public function deleteWebhookEndpoint(
        string $id,
    ): void {
        $this->send(
            'DELETE',
            '/v2/webhooks/endpoints/{id}',
            ['id' => $id],
            [],
            [],
            null,
        );
    }

    /**
     * Rotate the signing secret of an endpoint (`POST /v2/webhooks/endpoints/{id}:rotate-secret`).
     * @param string $id The webhook endpoint id (`whe_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function rotateWebhookSecret(
        string $id,
        Model\RotateWebhookSecretRequest|array|null $body = null,
        ?string $idempotencyKey = null,
    ): Model\WebhookEndpointWithSecret {
        $data = $this->send(
            'POST',
            '/v2/webhooks/endpoints/{id}:rotate-secret',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body ?? new \stdClass(),
        );
        return Model\WebhookEndpointWithSecret::fromArray($data);
    }

    /**
     * End a secret rotation overlap now (`POST /v2/webhooks/endpoints/{id}:close-old-secret`).
     * @param string $id The webhook endpoint id (`whe_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function closeOldWebhookSecret(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\WebhookEndpoint {
        $data = $this->send(
            'POST',
            '/v2/webhooks/endpoints/{id}:close-old-secret',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\WebhookEndpoint::fromArray($data);
    }

    /**
     * Send a test event to an endpoint (`POST /v2/webhooks/endpoints/{id}:test`).
     * @param string $id The webhook endpoint id (`whe_…`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function sendWebhookTest(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\WebhookDelivery {
        $data = $this->send(
            'POST',
            '/v2/webhooks/endpoints/{id}:test',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\WebhookDelivery::fromArray($data);
    }

    /**
     * List the deliveries of an endpoint (`GET /v2/webhooks/endpoints/{id}/deliveries`).
     * @param string $id The webhook endpoint id (`whe_…`).
     */
    public function listWebhookDeliveries(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): Model\WebhookDeliveryPage {
        $data = $this->send(
            'GET',
            '/v2/webhooks/endpoints/{id}/deliveries',
            ['id' => $id],
            ['limit' => ($limit === null ? null : (string) $limit), 'cursor' => $cursor],
            [],
            null,
        );
        return Model\WebhookDeliveryPage::fromArray($data);
    }

    /**
     * Every entry of `data` of `listWebhookDeliveries` (`GET /v2/webhooks/endpoints/{id}/deliveries`),
     * page after page: a generator that fetches each page (one `listWebhookDeliveries` call) only when
     * the loop reaches it, and stops after the last one.
     * @return \Generator<int, Model\WebhookDeliveryPageDataItem>
     */
    public function listWebhookDeliveriesAutoPaging(
        string $id,
        ?int $limit = null,
        ?string $cursor = null,
    ): \Generator {
        return Internal\AutoPager::walk(
            fn (?string $cursor): Model\WebhookDeliveryPage => $this->listWebhookDeliveries(id: $id, limit: $limit, cursor: $cursor),
            $cursor,
            'data',
            'GET /v2/webhooks/endpoints/{id}/deliveries',
        );
    }

    /**
     * Send a delivery again (`POST /v2/webhooks/deliveries/{id}:resend`).
     * @param string $id The delivery id (`msg_…`, its `webhook-id`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function resendWebhookDelivery(
        string $id,
        ?string $idempotencyKey = null,
    ): Model\WebhookDelivery {
        $data = $this->send(
            'POST',
            '/v2/webhooks/deliveries/{id}:resend',
            ['id' => $id],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            new \stdClass(),
        );
        return Model\WebhookDelivery::fromArray($data);
    }

    /**
     * Trigger an event (test environment) (`POST /v2/webhooks/events:trigger`).
     * @param string|null $idempotencyKey A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept 24 hours and replayed with `Idempotent-Replayed: true` instead of running again. At most 255 visible ASCII characters.
     */
    public function triggerWebhookEvent(
        Model\TriggerEventRequest|array $body,
        ?string $idempotencyKey = null,
    ): Model\TriggeredEvent {
        $data = $this->send(
            'POST',
            '/v2/webhooks/events:trigger',
            [],
            [],
            ['Idempotency-Key' => $idempotencyKey],
            $body,
        );
        return Model\TriggeredEvent::fromArray($data);
    }

    /**
     * Stream the events (test environment) (`GET /v2/webhooks/events:stream`).
     * @param string|null $lastEventID The `id` of the last event received.
     */
    public function streamWebhookEvents(
        ?string $lastEventID = null,
    ): void {
        $this->send(
            'GET',
            '/v2/webhooks/events:stream',
            [],
            [],
            ['Last-Event-ID' => $lastEventID],
            null,
        );
    }

    /**
     * Get this OpenAPI document (`GET /v2/openapi.json`).
     * @param string|null $ifNoneMatch The `ETag` of a copy held; 304 when current.
     */
    public function getOpenApiDocument(
        ?string $ifNoneMatch = null,
    ): ?array {
        $data = $this->send(
            'GET',
            '/v2/openapi.json',
            [],
            [],
            ['If-None-Match' => $ifNoneMatch],
            null,
        );
        return $data;
    }
}
