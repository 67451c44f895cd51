<?php

declare(strict_types=1);

namespace Keygate\Client\Internal;

/** Walks a cursor-paged list for the `…AutoPaging` methods. */
final class AutoPager
{
    /**
     * Yields the entries of page after page: `$fetch($cursor)` returns a page model with a
     * `nextCursor`; its `$member` list (`data`, `items`) is yielded entry by entry, or the page
     * itself when `$member` is null. A generator: a page is fetched only when the loop asks for its
     * first entry, so leaving the loop early fetches no further page. Stops after the page without
     * `nextCursor`; a cursor the service gives twice would repeat entries, and is refused.
     *
     * @template T
     * @param callable(?string): object $fetch
     * @return \Generator<int, T>
     */
    public static function walk(callable $fetch, ?string $cursor, ?string $member, string $operation): \Generator
    {
        $seen = $cursor === null ? [] : [$cursor => true];
        do {
            $page = $fetch($cursor);
            foreach ($member === null ? [$page] : $page->{$member} as $entry) {
                yield $entry;
            }
            $cursor = $page->nextCursor;
            if ($cursor !== null && isset($seen[$cursor])) {
                throw new \UnexpectedValueException("keygate: {$operation} returned the cursor {$cursor} twice");
            }
            $seen[$cursor ?? ''] = true;
        } while ($cursor !== null);
    }
}
