<?php

declare(strict_types=1);

namespace Keygate\Client\Generator;

/** Reads the document, and compares or writes the generated files under `src/`. */
final class Files
{
    public const DOCUMENT = __DIR__ . '/../../openapi/openapi.json';
    public const SOURCE = __DIR__ . '/../src';
    /** The generated files outside `src/Model/`. */
    private const TOP_LEVEL = ['KeygateOperations.php', 'WebhookEvents.php'];

    /**
     * The generated files for the document at `$path`, path relative to `src/` → contents.
     *
     * @return array<string, string>
     */
    public static function generate(string $path = self::DOCUMENT): array
    {
        $document = json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR);
        return (new Generator($document))->files();
    }

    /**
     * The generated files as they are on disk: `KeygateOperations.php`, `WebhookEvents.php` and everything in `Model/`.
     *
     * @return array<string, string>
     */
    public static function committed(): array
    {
        $files = [];
        foreach (self::TOP_LEVEL as $name) {
            if (is_file(self::SOURCE . "/{$name}")) {
                $files[$name] = (string) file_get_contents(self::SOURCE . "/{$name}");
            }
        }
        foreach (glob(self::SOURCE . '/Model/*.php') ?: [] as $file) {
            $files['Model/' . basename($file)] = (string) file_get_contents($file);
        }
        ksort($files, SORT_STRING);
        return $files;
    }

    /**
     * Writes what differs and deletes models that are no longer generated.
     *
     * @param array<string, string> $files
     * @return list<string> the paths written or deleted
     */
    public static function write(array $files): array
    {
        $changed = [];
        foreach (array_diff_key(self::committed(), $files) as $stale => $_) {
            unlink(self::SOURCE . "/{$stale}");
            $changed[] = $stale;
        }
        if (!is_dir(self::SOURCE . '/Model')) {
            mkdir(self::SOURCE . '/Model', 0o777, true);
        }
        foreach ($files as $path => $contents) {
            $target = self::SOURCE . "/{$path}";
            if (!is_file($target) || file_get_contents($target) !== $contents) {
                file_put_contents($target, $contents);
                $changed[] = $path;
            }
        }
        return $changed;
    }
}
