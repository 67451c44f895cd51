<?php

declare(strict_types=1);

// A webhook receiver as an integrator writes one, run by `php -S` in WebhooksTest: it verifies each
// request with Webhook::verify against the endpoint's secret (read from a file, since the secret
// exists only once the endpoint does) and answers 204 only when it verified, else 400.
// Each request is also written to KEYGATE_RECEIVER_DIR so the test can look at it.

use Keygate\Client\Exception\WebhookVerificationException;
use Keygate\Client\Webhook;

require __DIR__ . '/../bootstrap.php';

$dir = (string) getenv('KEYGATE_RECEIVER_DIR');
$body = (string) file_get_contents('php://input');
$headers = getallheaders();
$secrets = array_filter(explode("\n", (string) @file_get_contents("{$dir}/secrets")));
try {
    $verified = Webhook::verify(array_values($secrets), $headers, $body);
    $verdict = 'verified ' . $verified->payload['type'];
    http_response_code(204);
} catch (WebhookVerificationException $e) {
    $verdict = $e->errorCode;
    http_response_code(400);
}
file_put_contents(
    sprintf('%s/%s-%s.json', $dir, hrtime(true), bin2hex(random_bytes(4))),
    json_encode(['headers' => $headers, 'body' => $body, 'verdict' => $verdict]),
);
