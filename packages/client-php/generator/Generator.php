<?php

declare(strict_types=1);

namespace Keygate\Client\Generator;

/**
 * Turns the OpenAPI document into PHP source: one readonly model class per object schema, one
 * backed enum per string enum, and the `KeygateOperations` trait with one method per operation.
 *
 * Rules, in the order they are applied:
 * - A component schema keeps its name; an inline object or enum is named after where it sits
 *   (`ApiKey` + `rateLimit` → `ApiKeyRateLimit`, array items singular: `Cart` + `lines` → `CartLine`).
 * - An inline enum or object identical to one already named reuses that name (components come
 *   first, in document order), so `environment: enum [live, test]` is the `Environment` enum.
 * - `anyOf: [X, {type: null}]` and `type: [X, "null"]` are `?X`; a member outside `required` is
 *   nullable too and left out of the JSON when null.
 * - Free-form objects (`additionalProperties: {}`) stay PHP arrays; `format: date-time` is a
 *   `DateTimeImmutable`; an enum of exactly `true`/`false` (a query flag) is a `bool`.
 *
 * Pure: the same document gives the same files byte for byte, which the drift test relies on.
 */
final class Generator
{
    public const COMMAND = 'pnpm --filter @keygate/client-php generate';
    public const HEADER = "// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.\n"
        . '// Regenerate with `' . self::COMMAND . "`.\n";

    /** @param array<string, mixed> $document */
    public function __construct(private readonly array $document)
    {
    }

    /**
     * Every generated file, path relative to `src/` → contents, sorted by path.
     *
     * @return array<string, string>
     */
    public function files(): array
    {
        $types = new SchemaTypes($this->document);
        $models = new ModelWriter($types);
        // Writing a class registers the inline types it holds: loop until no type is left unwritten.
        // Models go before operations, so an inline enum of a parameter reuses the model's name.
        $files = [];
        $this->writeTypes($files, $types, $models);
        $files['KeygateOperations.php'] = (new OperationsWriter($this->document, $types))->operationsTrait();
        $files['WebhookEvents.php'] = $this->webhookEvents();
        $this->writeTypes($files, $types, $models);
        ksort($files, SORT_STRING);
        return $files;
    }

    /** @param array<string, string> $files */
    private function writeTypes(array &$files, SchemaTypes $types, ModelWriter $models): void
    {
        do {
            $pending = array_diff_key($types->all(), array_flip(array_map(
                static fn (string $path): string => basename($path, '.php'),
                array_keys($files),
            )));
            foreach ($pending as $name => $type) {
                $files["Model/{$name}.php"] = $type['kind'] === 'enum'
                    ? $models->enumFile($name, $type['schema'])
                    : $models->classFile($name, $type['schema']);
            }
        } while ($pending !== []);
    }

    /** `WebhookEvents`: each event type of the document's `webhooks` → the model of its payload. */
    private function webhookEvents(): string
    {
        $entries = '';
        $classes = [];
        foreach ($this->document['webhooks'] ?? [] as $type => $item) {
            $ref = $item['post']['requestBody']['content']['application/json']['schema']['$ref'] ?? null;
            if ($ref !== null) {
                $class = 'Model\\' . substr($ref, strlen('#/components/schemas/'));
                $entries .= '        ' . var_export((string) $type, true) . " => {$class}::class,\n";
                $classes[] = $class;
            }
        }
        $union = implode('|', $classes);
        return "<?php\n\n" . self::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client;\n\n"
            . "/** The webhook events keygate sends, by type, with the model of each payload. */\n"
            . "final class WebhookEvents\n{\n"
            . "    /** Event type → model class of its payload. */\n"
            . "    public const MODELS = [\n{$entries}    ];\n\n"
            . "    /**\n     * The typed event of a verified payload, or null for a type this version of the client does not know.\n     *\n"
            . "     * @param array<string, mixed> \$payload\n     * @return ({$union})|null\n     */\n"
            . "    public static function fromPayload(array \$payload): ?object\n    {\n"
            . "        \$class = self::MODELS[\$payload['type'] ?? ''] ?? null;\n"
            . "        return \$class === null ? null : \$class::fromArray(\$payload);\n    }\n}\n";
    }
}
