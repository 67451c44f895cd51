<?php

declare(strict_types=1);

namespace Keygate\Client\Generator;

/** Writes the PHP source of one model class or enum. */
final class ModelWriter
{
    public function __construct(private readonly SchemaTypes $types)
    {
    }

    /** @param array<string, mixed> $schema */
    public function enumFile(string $name, array $schema): string
    {
        $cases = '';
        foreach ($schema['enum'] as $value) {
            $cases .= '    case ' . SchemaTypes::caseName((string) $value) . ' = ' . var_export((string) $value, true) . ";\n";
        }
        $doc = $this->docComment($schema, '');
        return "<?php\n\n" . Generator::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client\\Model;\n\n"
            . $doc . "enum {$name}: string\n{\n{$cases}}\n";
    }

    /** @param array<string, mixed> $schema */
    public function classFile(string $name, array $schema): string
    {
        $required = $schema['required'] ?? [];
        $members = [];
        foreach ($schema['properties'] ?? [] as $property => $propertySchema) {
            $type = $this->types->typeOf($propertySchema, $name, $property);
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
        return "<?php\n\n" . Generator::HEADER . "\ndeclare(strict_types=1);\n\nnamespace Keygate\\Client\\Model;\n\n"
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
}
