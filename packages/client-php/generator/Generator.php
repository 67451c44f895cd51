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
    private const HEADER = "// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.\n"
        . '// Regenerate with `' . self::COMMAND . "`.\n";

    /** @var array<string, array{kind: 'class'|'enum', schema: array<string, mixed>, key: string}> */
    private array $types = [];
    /** @var array<string, string> structural key → type name */
    private array $byKey = [];

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
        foreach ($this->document['components']['schemas'] as $name => $schema) {
            $this->registerComponent($name, $schema);
        }
        // Writing a class registers the inline types it holds: loop until no type is left unwritten.
        // Models go before operations, so an inline enum of a parameter reuses the model's name.
        $files = [];
        $this->writeTypes($files);
        $files['KeygateOperations.php'] = $this->operationsTrait();
        $this->writeTypes($files);
        ksort($files, SORT_STRING);
        return $files;
    }

    /** @param array<string, string> $files */
    private function writeTypes(array &$files): void
    {
        do {
            $pending = array_diff_key($this->types, array_flip(array_map(
                static fn (string $path): string => basename($path, '.php'),
                array_keys($files),
            )));
            foreach ($pending as $name => $type) {
                $files["Model/{$name}.php"] = $type['kind'] === 'enum'
                    ? $this->enumFile($name, $type['schema'])
                    : $this->classFile($name, $type['schema']);
            }
        } while ($pending !== []);
    }

    /** @param array<string, mixed> $schema */
    private function registerComponent(string $name, array $schema): void
    {
        $schema = $this->flatten($schema);
        if ($this->isEnum($schema)) {
            $this->addType($name, 'enum', $schema);
        } elseif ($this->isModelObject($schema)) {
            $this->addType($name, 'class', $schema);
        }
    }

    /** @param array<string, mixed> $schema */
    private function addType(string $name, string $kind, array $schema): string
    {
        $key = $this->structuralKey($schema);
        if (isset($this->byKey[$key])) {
            return $this->byKey[$key];
        }
        if (isset($this->types[$name])) {
            throw new \RuntimeException("two different schemas would both be named {$name}");
        }
        $this->types[$name] = ['kind' => $kind, 'schema' => $schema, 'key' => $key];
        $this->byKey[$key] = $name;
        return $name;
    }

    /** @param array<string, mixed> $schema */
    private function structuralKey(array $schema): string
    {
        $strip = static function (mixed $value) use (&$strip): mixed {
            if (!is_array($value)) {
                return $value;
            }
            $out = [];
            foreach ($value as $k => $v) {
                if (!in_array($k, ['description', 'examples', 'example', 'default', 'title'], true)) {
                    $out[$k] = $strip($v);
                }
            }
            return $out;
        };
        return json_encode($strip($schema), JSON_THROW_ON_ERROR);
    }

    /**
     * Resolves `$ref` to components that are not models (e.g. `Currency`, a patterned string) and
     * merges `allOf` members, so the rest of the generator sees plain schemas.
     *
     * @param array<string, mixed> $schema
     * @return array<string, mixed>
     */
    private function flatten(array $schema): array
    {
        if (isset($schema['allOf'])) {
            $merged = ['type' => 'object', 'properties' => [], 'required' => []];
            foreach ($schema['allOf'] as $part) {
                $part = isset($part['$ref']) ? $this->component($part['$ref']) : $part;
                $part = $this->flatten($part);
                $merged['properties'] = array_merge($merged['properties'], $part['properties'] ?? []);
                $merged['required'] = array_values(array_unique(array_merge($merged['required'], $part['required'] ?? [])));
            }
            return $merged;
        }
        return $schema;
    }

    /** @return array<string, mixed> */
    private function component(string $ref): array
    {
        $name = substr($ref, strlen('#/components/schemas/'));
        return $this->document['components']['schemas'][$name]
            ?? throw new \RuntimeException("unknown reference {$ref}");
    }

    /** @param array<string, mixed> $schema */
    private function isEnum(array $schema): bool
    {
        return isset($schema['enum']) && ($schema['type'] ?? null) === 'string' && !$this->isBoolFlag($schema);
    }

    /** @param array<string, mixed> $schema */
    private function isBoolFlag(array $schema): bool
    {
        return isset($schema['enum']) && $schema['enum'] === ['true', 'false'];
    }

    /**
     * An object becomes a class unless it is free-form (`additionalProperties` other than false):
     * those stay arrays, since their members are not known in advance.
     *
     * @param array<string, mixed> $schema
     */
    private function isModelObject(array $schema): bool
    {
        return ($schema['type'] ?? null) === 'object' && ($schema['additionalProperties'] ?? false) === false;
    }

    /**
     * The PHP type of a schema in context `$owner` + `$member` (used to name inline types).
     *
     * @param array<string, mixed> $schema
     * @return array{php: string, nullable: bool, kind: string, item?: array<string, mixed>, name?: string}
     */
    private function typeOf(array $schema, string $owner, string $member): array
    {
        if (isset($schema['$ref'])) {
            $name = substr($schema['$ref'], strlen('#/components/schemas/'));
            if (isset($this->types[$name])) {
                return ['php' => $name, 'nullable' => false, 'kind' => $this->types[$name]['kind'], 'name' => $name];
            }
            return $this->typeOf($this->flatten($this->component($schema['$ref'])), $owner, $member);
        }
        foreach (['anyOf', 'oneOf'] as $union) {
            if (isset($schema[$union])) {
                $members = array_values(array_filter($schema[$union], static fn (array $s): bool => ($s['type'] ?? null) !== 'null'));
                $nullable = count($members) < count($schema[$union]);
                if (count($members) === 1) {
                    $type = $this->typeOf($members[0], $owner, $member);
                    $type['nullable'] = $type['nullable'] || $nullable;
                    return $type;
                }
                $scalars = array_map(fn (array $s): array => $this->typeOf($s, $owner, $member), $members);
                $kinds = array_unique(array_column($scalars, 'kind'));
                $php = $kinds === ['scalar'] ? implode('|', array_unique(array_column($scalars, 'php'))) : 'mixed';
                return ['php' => $php, 'nullable' => $nullable && $php !== 'mixed', 'kind' => $php === 'mixed' ? 'mixed' : 'scalar'];
            }
        }
        $types = (array) ($schema['type'] ?? []);
        $nullable = in_array('null', $types, true);
        $types = array_values(array_filter($types, static fn (string $t): bool => $t !== 'null'));
        if (count($types) > 1) {
            $php = implode('|', array_map(fn (string $t): string => $this->scalar($t), $types));
            return ['php' => $php, 'nullable' => $nullable, 'kind' => 'scalar'];
        }
        $type = $types[0] ?? null;
        if ($type === null) {
            return ['php' => 'mixed', 'nullable' => false, 'kind' => 'mixed'];
        }
        if ($this->isBoolFlag($schema)) {
            return ['php' => 'bool', 'nullable' => $nullable, 'kind' => 'flag'];
        }
        if ($this->isEnum($schema)) {
            $name = $this->addType($owner . self::pascal($member), 'enum', ['type' => 'string', 'enum' => $schema['enum']]);
            return ['php' => $name, 'nullable' => $nullable, 'kind' => 'enum', 'name' => $name];
        }
        if ($type === 'string' && ($schema['format'] ?? null) === 'date-time') {
            return ['php' => '\\DateTimeImmutable', 'nullable' => $nullable, 'kind' => 'datetime'];
        }
        if ($type === 'array') {
            $item = $this->typeOf($schema['items'] ?? [], $owner, self::singular($member));
            return ['php' => 'array', 'nullable' => $nullable, 'kind' => 'array', 'item' => $item];
        }
        if ($type === 'object') {
            if (!$this->isModelObject($schema)) {
                return ['php' => 'array', 'nullable' => $nullable, 'kind' => 'map'];
            }
            $name = $this->addType($owner . self::pascal($member), 'class', $schema);
            return ['php' => $name, 'nullable' => $nullable, 'kind' => 'class', 'name' => $name];
        }
        return ['php' => $this->scalar($type), 'nullable' => $nullable, 'kind' => 'scalar'];
    }

    private function scalar(string $type): string
    {
        return match ($type) {
            'string' => 'string',
            'integer' => 'int',
            'number' => 'float',
            'boolean' => 'bool',
            'array' => 'array',
            'object' => 'array',
            default => throw new \RuntimeException("unsupported type {$type}"),
        };
    }

    /** @param array<string, mixed> $schema */
    private function enumFile(string $name, array $schema): string
    {
        $cases = '';
        foreach ($schema['enum'] as $value) {
            $cases .= '    case ' . self::caseName((string) $value) . ' = ' . var_export((string) $value, true) . ";\n";
        }
        $doc = $this->docComment($schema, '');
        return "<?php\n\n" . self::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client\\Model;\n\n"
            . $doc . "enum {$name}: string\n{\n{$cases}}\n";
    }

    /** @param array<string, mixed> $schema */
    private function classFile(string $name, array $schema): string
    {
        $required = $schema['required'] ?? [];
        $members = [];
        foreach ($schema['properties'] ?? [] as $property => $propertySchema) {
            $type = $this->typeOf($propertySchema, $name, $property);
            $isRequired = in_array($property, $required, true);
            $members[] = ['name' => $property, 'type' => $type, 'required' => $isRequired, 'schema' => $propertySchema];
        }
        // Required members first, so positional construction needs no placeholders for optional ones.
        usort($members, static fn (array $a, array $b): int => (int) !$a['required'] <=> (int) !$b['required']);
        $params = [];
        $from = [];
        $to = [];
        foreach ($members as $m) {
            $var = '$' . $m['name'];
            $nullable = $m['type']['nullable'] || !$m['required'];
            $php = $m['type']['php'];
            $hint = $php === 'mixed' ? 'mixed' : ($nullable ? (str_contains($php, '|') ? "{$php}|null" : "?{$php}") : $php);
            $default = $m['required'] ? '' : ' = null';
            $doc = $this->memberDoc($m['schema'], $m['type'], $nullable);
            $params[] = $doc . "        public readonly {$hint} {$var}{$default},";
            $key = var_export($m['name'], true);
            $read = $m['required'] ? "\$data[{$key}]" : "\$data[{$key}] ?? null";
            $from[] = '            ' . ($m['required'] ? '' : "{$m['name']}: ") . $this->decode($m['type'], $read, $nullable) . ',';
            $encoded = $this->encode($m['type'], "\$this->{$m['name']}", $nullable);
            // Optional members are left out when null: for a PATCH, absent means "unchanged" while null may
            // mean something (eventTypes: null is every event type); pass an array body to send a null.
            $to[] = $m['required']
                ? "        \$data[{$key}] = {$encoded};"
                : "        if (\$this->{$m['name']} !== null) {\n            \$data[{$key}] = {$encoded};\n        }";
        }
        $fromBody = $from === [] ? '' : "\n" . implode("\n", $from) . "\n        ";
        $construct = $params === []
            ? "    public function __construct()\n    {\n    }\n"
            : "    public function __construct(\n" . implode("\n", $params) . "\n    ) {\n    }\n";
        return "<?php\n\n" . self::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client\\Model;\n\n"
            . $this->docComment($schema, '')
            . "final class {$name} implements \\JsonSerializable\n{\n"
            . $construct . "\n"
            . "    /** Builds the model from decoded JSON (`json_decode(…, true)`). */\n"
            . "    public static function fromArray(array \$data): self\n    {\n"
            . "        return new self({$fromBody});\n    }\n\n"
            . "    /** The JSON object this model stands for, members outside `required` left out when null. */\n"
            . "    public function toArray(): array\n    {\n        \$data = [];\n"
            . ($to === [] ? '' : implode("\n", $to) . "\n")
            . "        return \$data;\n    }\n\n"
            . "    public function jsonSerialize(): mixed\n    {\n        return (object) \$this->toArray();\n    }\n}\n";
    }

    /** PHP expression turning decoded JSON `$expr` into the member's type. */
    private function decode(array $type, string $expr, bool $nullable): string
    {
        $wrap = static fn (string $inner, string $var = '$v'): string => $nullable
            ? "(static fn (\$v) => \$v === null ? null : {$inner})({$expr})"
            : str_replace($var, $expr, $inner);
        return match ($type['kind']) {
            'class' => $wrap("{$type['name']}::fromArray(\$v)"),
            'enum' => $wrap("{$type['name']}::from(\$v)"),
            'datetime' => $wrap('new \\DateTimeImmutable($v)'),
            'flag' => $wrap("(\$v === true || \$v === 'true')"),
            'array' => $this->decodeArray($type['item'], $expr, $nullable),
            default => $type['php'] === 'float' ? $wrap('(float) $v') : $expr,
        };
    }

    private function decodeArray(array $item, string $expr, bool $nullable): string
    {
        if (!in_array($item['kind'], ['class', 'enum', 'datetime'], true) && $item['php'] !== 'float') {
            return $expr;
        }
        $inner = $this->decode($item, '$i', $item['nullable']);
        $map = "array_map(static fn (\$i) => {$inner}, \$v)";
        return $nullable ? "(static fn (\$v) => \$v === null ? null : {$map})({$expr})" : str_replace('$v', $expr, $map);
    }

    /** PHP expression turning the member `$expr` back into JSON-ready data. */
    private function encode(array $type, string $expr, bool $nullable): string
    {
        $q = $nullable ? '?' : '';
        return match ($type['kind']) {
            'class' => "{$expr}{$q}->toArray()",
            'enum' => "{$expr}{$q}->value",
            'datetime' => "{$expr}{$q}->format('Y-m-d\\TH:i:s.vP')",
            'flag' => $nullable ? "{$expr} === null ? null : ({$expr} ? 'true' : 'false')" : "({$expr} ? 'true' : 'false')",
            'array' => in_array($type['item']['kind'], ['class', 'enum', 'datetime'], true)
                ? ($nullable ? "{$expr} === null ? null : " : '')
                    . "array_map(static fn (\$i) => " . $this->encode($type['item'], '$i', $type['item']['nullable']) . ", {$expr})"
                : $expr,
            'map' => $nullable ? "{$expr} === null ? null : (object) {$expr}" : "(object) {$expr}",
            default => $expr,
        };
    }

    private function memberDoc(array $schema, array $type, bool $nullable): string
    {
        $lines = [];
        $text = $schema['description'] ?? null;
        if ($text === null && isset($schema['anyOf'])) {
            foreach ($schema['anyOf'] as $s) {
                $text ??= $s['description'] ?? null;
            }
        }
        if ($text !== null) {
            $lines[] = self::docText($text);
        }
        if ($type['kind'] === 'array') {
            $lines[] = '@var list<' . $this->docType($type['item']) . '>' . ($nullable ? '|null' : '');
        } elseif ($type['kind'] === 'map') {
            $lines[] = '@var array<string, mixed>' . ($nullable ? '|null' : '');
        }
        if ($lines === []) {
            return '';
        }
        if (count($lines) === 1 && !str_contains($lines[0], "\n")) {
            return "        /** {$lines[0]} */\n";
        }
        $body = implode("\n", array_map(static fn (string $l): string => implode("\n", array_map(
            static fn (string $x): string => rtrim("         * {$x}"),
            explode("\n", $l),
        )), $lines));
        return "        /**\n{$body}\n         */\n";
    }

    private function docType(array $type): string
    {
        $php = match ($type['kind']) {
            'array' => 'list<' . $this->docType($type['item']) . '>',
            'map' => 'array<string, mixed>',
            default => $type['php'],
        };
        return $type['nullable'] && $php !== 'mixed' ? "{$php}|null" : $php;
    }

    private function docComment(array $schema, string $indent): string
    {
        $text = $schema['description'] ?? null;
        if ($text === null) {
            return '';
        }
        $lines = explode("\n", self::docText($text));
        if (count($lines) === 1) {
            return "{$indent}/** {$lines[0]} */\n";
        }
        return "{$indent}/**\n" . implode('', array_map(static fn (string $l): string => rtrim("{$indent} * {$l}") . "\n", $lines)) . "{$indent} */\n";
    }

    private static function docText(string $text): string
    {
        return wordwrap(str_replace('*/', '*&#47;', trim($text)), 100, "\n", false);
    }

    /** The `KeygateOperations` trait: one method per operation of the document, named by its `operationId`. */
    private function operationsTrait(): string
    {
        $methods = [];
        foreach ($this->document['paths'] as $path => $operations) {
            foreach ($operations as $method => $operation) {
                if (!is_array($operation) || !isset($operation['operationId'])) {
                    continue;
                }
                $methods[] = $this->operationMethod(strtoupper($method), $path, $operation);
            }
        }
        return "<?php\n\n" . self::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client;\n\n"
            . "/**\n * Every operation of the keygate API, one method each, named by its `operationId`. Each sends\n"
            . " * through `KeygateClient::send()`, so retries, rate-limit state, notices and exceptions apply.\n */\n"
            . "trait KeygateOperations\n{\n"
            . implode("\n", $methods)
            . "}\n";
    }

    private function operationMethod(string $method, string $path, array $operation): string
    {
        $id = $operation['operationId'];
        $owner = self::pascal($id);
        $required = [];
        $optional = [];
        $pathArgs = [];
        $queryArgs = [];
        $headerArgs = [];
        $docParams = [];
        $taken = [];
        foreach ($operation['parameters'] ?? [] as $parameter) {
            $name = $parameter['name'];
            $var = $parameter['in'] === 'header' ? lcfirst(self::pascal(preg_replace('/^X-/i', '', $name))) : $name;
            if (isset($taken[$var])) {
                throw new \RuntimeException("{$id}: two parameters would both be named \${$var}");
            }
            $taken[$var] = true;
            $type = $this->typeOf($parameter['schema'], $owner, $name);
            $hint = $type['php'];
            $isRequired = ($parameter['required'] ?? false) === true;
            $value = match ($type['kind']) {
                'enum' => "\${$var}" . ($isRequired ? '' : '?') . '->value',
                'flag' => $isRequired ? "(\${$var} ? 'true' : 'false')" : "(\${$var} === null ? null : (\${$var} ? 'true' : 'false'))",
                'datetime' => "\${$var}" . ($isRequired ? '' : '?') . "->format('Y-m-d\\TH:i:s.vP')",
                'scalar' => $hint === 'string' ? "\${$var}" : "(\${$var} === null ? null : (string) \${$var})",
                default => "\${$var}",
            };
            if ($type['kind'] === 'datetime') {
                $hint = '\\DateTimeInterface';
            } elseif (in_array($type['kind'], ['enum', 'class'], true)) {
                $hint = "Model\\{$hint}";
            }
            $entry = var_export($name, true) . " => {$value}";
            match ($parameter['in']) {
                'path' => $pathArgs[] = $entry,
                'query' => $queryArgs[] = $entry,
                'header' => $headerArgs[] = $entry,
            };
            if ($isRequired) {
                $required[] = "{$hint} \${$var}";
            } else {
                $optional[] = "?{$hint} \${$var} = null";
            }
            if (isset($parameter['description'])) {
                $docParams[] = ($isRequired ? "@param {$hint} \${$var} " : "@param {$hint}|null \${$var} ") . str_replace("\n", ' ', trim($parameter['description']));
            }
        }
        $body = 'null';
        $request = $operation['requestBody']['content']['application/json']['schema'] ?? null;
        if ($request !== null) {
            $type = $this->typeOf($request, $owner, 'Request');
            $schema = $this->flatten(isset($request['$ref']) ? $this->component($request['$ref']) : $request);
            if (($schema['properties'] ?? []) === []) {
                $body = 'new \\stdClass()';
            } elseif (($operation['requestBody']['required'] ?? false) === true && ($schema['required'] ?? []) !== []) {
                $required[] = "Model\\{$type['php']}|array \$body";
                $body = '$body';
            } else {
                $optional[] = "Model\\{$type['php']}|array|null \$body = null";
                $body = '$body ?? new \\stdClass()';
            }
        }
        [$returnType, $decoder] = $this->responseOf($operation, $owner);
        $args = array_merge($required, $optional);
        $signature = $args === [] ? '()' : "(\n        " . implode(",\n        ", $args) . ",\n    )";
        $summary = $operation['summary'] ?? $id;
        $doc = "    /**\n     * " . str_replace("\n", ' ', trim($summary)) . " (`{$method} {$path}`).\n";
        foreach ($docParams as $line) {
            $doc .= "     * {$line}\n";
        }
        $doc .= "     */\n";
        $list = static fn (array $items): string => $items === [] ? '[]' : '[' . implode(', ', $items) . ']';
        $call = "\$this->send(\n            '{$method}',\n            " . var_export($path, true) . ",\n            "
            . $list($pathArgs) . ",\n            " . $list($queryArgs) . ",\n            " . $list($headerArgs)
            . ",\n            {$body},\n        )";
        $statement = $decoder === null ? "        {$call};\n" : "        \$data = {$call};\n        return {$decoder};\n";
        $open = $args === [] ? "\n    {" : ' {';
        return $doc . "    public function {$id}{$signature}: {$returnType}{$open}\n{$statement}    }\n";
    }

    /** @return array{0: string, 1: ?string} return type and the expression decoding `$data` */
    private function responseOf(array $operation, string $owner): array
    {
        $schema = null;
        $notModified = isset($operation['responses']['304']);
        foreach ($operation['responses'] as $status => $response) {
            if ((int) $status >= 200 && (int) $status < 300) {
                $schema = $response['content']['application/json']['schema'] ?? null;
                break;
            }
        }
        if ($schema === null) {
            return ['void', null];
        }
        $type = $this->typeOf($schema, $owner, 'Response');
        $q = $notModified ? '?' : '';
        return match ($type['kind']) {
            'class' => ["{$q}Model\\{$type['name']}", $notModified
                ? "\$data === null ? null : Model\\{$type['name']}::fromArray(\$data)"
                : "Model\\{$type['name']}::fromArray(\$data)"],
            default => ["{$q}array", '$data'],
        };
    }

    public static function pascal(string $text): string
    {
        $parts = preg_split('/[^A-Za-z0-9]+/', $text, -1, PREG_SPLIT_NO_EMPTY);
        return implode('', array_map(static fn (string $p): string => ucfirst($p), $parts));
    }

    private static function caseName(string $value): string
    {
        $name = self::pascal($value);
        return preg_match('/^[0-9]/', $name) ? "V{$name}" : $name;
    }

    private static function singular(string $member): string
    {
        if (str_ends_with($member, 'ies')) {
            return substr($member, 0, -3) . 'y';
        }
        if (str_ends_with($member, 's') && !str_ends_with($member, 'ss')) {
            return substr($member, 0, -1);
        }
        return $member . 'Item';
    }
}
