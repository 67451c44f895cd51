<?php

declare(strict_types=1);

namespace Keygate\Client\Internal;

/**
 * Reads the structured-field lists (RFC 8941) keygate's headers use:
 * `"per-key";r=57;t=23` and `2026-03-31; days-left=5`. Enough of the grammar for those
 * headers, not a general parser.
 *
 * @internal
 */
final class FieldList
{
    /**
     * The items of a list header: each a value and its parameters.
     *
     * @return list<array{value: string, params: array<string, string>}>
     */
    public static function parse(string $header): array
    {
        $items = [];
        foreach (preg_split('/,(?=(?:[^"]*"[^"]*")*[^"]*$)/', $header) ?: [] as $member) {
            $parts = preg_split('/;(?=(?:[^"]*"[^"]*")*[^"]*$)/', $member) ?: [];
            $value = self::unquote(array_shift($parts) ?? '');
            if ($value === '') {
                continue;
            }
            $params = [];
            foreach ($parts as $part) {
                [$key, $raw] = array_pad(explode('=', $part, 2), 2, '?1');
                $params[strtolower(trim($key))] = self::unquote($raw);
            }
            $items[] = ['value' => $value, 'params' => $params];
        }
        return $items;
    }

    /** An integer parameter of an item, or null when absent or not an integer. */
    public static function integer(?array $item, string $name): ?int
    {
        $raw = $item['params'][$name] ?? null;
        return $raw !== null && preg_match('/^-?\d{1,15}$/', $raw) === 1 ? (int) $raw : null;
    }

    private static function unquote(string $text): string
    {
        $text = trim($text);
        return strlen($text) >= 2 && $text[0] === '"' && str_ends_with($text, '"')
            ? stripcslashes(substr($text, 1, -1))
            : $text;
    }
}
