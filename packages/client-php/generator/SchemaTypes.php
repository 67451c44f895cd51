<?php

declare(strict_types=1);

namespace Keygate\Client\Generator;

/**
 * The PHP type of every schema of the document, and the registry of the model classes and enums
 * those types need (see `Generator` for the naming rules).
 */
final class SchemaTypes
{
    /** @var array<string, array{kind: 'class'|'enum', schema: array<string, mixed>, key: string}> */
    private array $types = [];
    /** @var array<string, string> structural key → type name */
    private array $byKey = [];

    /** @param array<string, mixed> $document */
    public function __construct(private readonly array $document)
    {
        foreach ($document['components']['schemas'] as $name => $schema) {
            $this->registerComponent($name, $schema);
        }
    }

    /**
     * The model classes and enums registered so far, by name, in registration order.
     *
     * @return array<string, array{kind: 'class'|'enum', schema: array<string, mixed>, key: string}>
     */
    public function all(): array
    {
        return $this->types;
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
    public function flatten(array $schema): array
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
    public function component(string $ref): array
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
    public function typeOf(array $schema, string $owner, string $member): array
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
                return $this->unionType($schema[$union], $owner, $member);
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

    /**
     * `anyOf`/`oneOf`: one member plus `null` is that member's type made nullable; several scalars
     * are a PHP union (`string|int`); anything else is `mixed`.
     *
     * @param list<array<string, mixed>> $members
     * @return array{php: string, nullable: bool, kind: string, item?: array<string, mixed>, name?: string}
     */
    private function unionType(array $members, string $owner, string $member): array
    {
        $present = array_values(array_filter($members, static fn (array $s): bool => ($s['type'] ?? null) !== 'null'));
        $nullable = count($present) < count($members);
        if (count($present) === 1) {
            $type = $this->typeOf($present[0], $owner, $member);
            $type['nullable'] = $type['nullable'] || $nullable;
            return $type;
        }
        $types = array_map(fn (array $s): array => $this->typeOf($s, $owner, $member), $present);
        $php = array_unique(array_column($types, 'kind')) === ['scalar']
            ? implode('|', array_unique(array_column($types, 'php')))
            : 'mixed';
        return ['php' => $php, 'nullable' => $nullable && $php !== 'mixed', 'kind' => $php === 'mixed' ? 'mixed' : 'scalar'];
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

    public static function pascal(string $text): string
    {
        $parts = preg_split('/[^A-Za-z0-9]+/', $text, -1, PREG_SPLIT_NO_EMPTY);
        return implode('', array_map(static fn (string $p): string => ucfirst($p), $parts));
    }

    public static function caseName(string $value): string
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
