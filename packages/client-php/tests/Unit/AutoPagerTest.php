<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Unit;

use Keygate\Client\Internal\AutoPager;
use PHPUnit\Framework\TestCase;

/** The walk behind every `…AutoPaging` method, on pages made up here. */
final class AutoPagerTest extends TestCase
{
    /** @var list<?string> the cursor of each page fetched */
    private array $fetched = [];

    /** @param array<string, array{0: list<string>, 1: ?string}> $pages cursor ('' for the first) → [entries, nextCursor] */
    private function fetcher(array $pages): callable
    {
        return function (?string $cursor) use ($pages): object {
            $this->fetched[] = $cursor;
            [$data, $next] = $pages[$cursor ?? ''];
            return (object) ['data' => $data, 'nextCursor' => $next];
        };
    }

    public function testYieldsEveryEntryOfEveryPageOnceAndStopsAfterTheLast(): void
    {
        $walk = AutoPager::walk($this->fetcher(['' => [['A', 'B'], 'c1'], 'c1' => [['C'], 'c2'], 'c2' => [['D'], null]]), null, 'data', 'GET /x');
        self::assertSame([], $this->fetched, 'nothing is fetched before the loop starts');
        self::assertSame(['A', 'B', 'C', 'D'], iterator_to_array($walk, false));
        self::assertSame([null, 'c1', 'c2'], $this->fetched);
    }

    public function testLeavingTheLoopFetchesNoFurtherPage(): void
    {
        foreach (AutoPager::walk($this->fetcher(['' => [['A', 'B'], 'c1'], 'c1' => [['C'], null]]), null, 'data', 'GET /x') as $entry) {
            if ($entry === 'B') {
                break;
            }
        }
        self::assertSame([null], $this->fetched);
    }

    public function testStartsFromTheGivenCursorAndYieldsWholePagesWithoutAMember(): void
    {
        $pages = iterator_to_array(AutoPager::walk($this->fetcher(['c1' => [['C'], null]]), 'c1', null, 'GET /x'), false);
        self::assertCount(1, $pages);
        self::assertSame(['C'], $pages[0]->data);
    }

    public function testACursorGivenTwiceStopsTheWalkInsteadOfRepeatingEntries(): void
    {
        $this->expectExceptionMessage('keygate: GET /x returned the cursor c1 twice');
        iterator_to_array(AutoPager::walk($this->fetcher(['' => [['A'], 'c1'], 'c1' => [['B'], 'c1']]), null, 'data', 'GET /x'), false);
    }
}
