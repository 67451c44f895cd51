<?php

declare(strict_types=1);

namespace Keygate\Client\Tests\Integration;

use Keygate\Client\Exception\InvalidRequestException;
use Keygate\Client\KeygateClient;
use Keygate\Client\Model\AddCartItemRequest;
use Keygate\Client\Model\CreateCartRequest;
use Keygate\Client\Model\CreateCustomerRequest;
use Keygate\Client\Model\CreateKeyRequest;
use Keygate\Client\Model\CreatePriceRequest;
use Keygate\Client\Model\CustomerTier;
use Keygate\Client\Model\GraphqlRequest;
use Keygate\Client\Model\OrderStatus;
use Keygate\Client\Model\PriceLevel;
use Keygate\Client\Model\ReplacePriceRequest;
use Keygate\Client\Model\UpdateCustomerRequest;

final class CommerceTest extends SystemTestCase
{
    private static ?KeygateClient $shop = null;

    /** A key made through the API for what a shop does: read the catalogue, carts and orders, customers. */
    private static function shop(): KeygateClient
    {
        return self::$shop ??= self::clientFor(self::admin()->createKey(new CreateKeyRequest(
            name: 'php-storefront',
            scopes: ['article:r', 'order:rw', 'customer:rw', 'pricing:rw', 'stock:r'],
        ))->secret);
    }

    public function testReadsTheCatalogueOfAChannelWithACustomersPrices(): void
    {
        $anonymous = self::shop()->listProducts(channel: 'WEB_DE', limit: 10);
        $forCustomer = self::shop()->listProducts(channel: 'WEB_DE', customer: 'cus_0003', limit: 10);
        self::assertSame(['WEB_DE', 'EUR', null, 'cus_0003'], [$anonymous->channel, $anonymous->currency, $anonymous->customer, $forCustomer->customer]);
        $listed = self::bySku($anonymous->data, 'KG-00003');
        $agreed = self::bySku($forCustomer->data, 'KG-00003');
        self::assertSame(PriceLevel::Agreement, $agreed->price->source);
        self::assertLessThan($listed->price->gross, $agreed->price->gross, 'cus_0003 has an agreement price below the list price');
        $detail = self::shop()->getProduct('KG-00003', channel: 'WEB_DE', customer: 'cus_0003');
        self::assertSame($agreed->price->gross, $detail->data->price->gross);
        self::assertNotNull($anonymous->nextCursor);
        $next = self::shop()->listProducts(channel: 'WEB_DE', limit: 10, cursor: $anonymous->nextCursor);
        self::assertNotSame($anonymous->data[0]->sku, $next->data[0]->sku);
    }

    public function testQueriesProductsWithATierPriceThroughGraphql(): void
    {
        $query = '{ products(channel: WEB_DE, first: 3) { sku retail: price(tier: "retail") { gross source } gold: price(tier: "gold") { gross source } } }';
        $result = self::shop()->queryGraphql(new GraphqlRequest(query: $query));
        self::assertSame([], $result->errors ?? []);
        $products = array_column($result->data['products'], null, 'sku');
        self::assertSame('tier', $products['KG-00003']['gold']['source']);
        self::assertLessThan($products['KG-00003']['retail']['gross'], $products['KG-00003']['gold']['gross']);
        $viaGet = self::shop()->queryGraphqlGet(query: '{ products(channel: WEB_DE, first: 1) { sku } }');
        self::assertSame('KG-00001', $viaGet->data['products'][0]['sku']);
    }

    public function testFillsACartAndChecksOut(): void
    {
        $cart = self::shop()->createCart(new CreateCartRequest(channel: 'WEB_DE', customerId: 'cus_0003'));
        $cart = self::shop()->addCartItem($cart->id, new AddCartItemRequest(sku: 'KG-00003', qty: 2));
        self::assertSame(['KG-00003', 2], [$cart->lines[0]->sku, $cart->lines[0]->qty]);
        self::assertSame($cart->lines[0]->unitPrice?->gross * 2, $cart->totals->gross);
        $order = self::shop()->checkoutCart($cart->id);
        self::assertSame([OrderStatus::Placed, $cart->totals->gross, $cart->id], [$order->status, $order->totals->gross, $order->cartId]);
        self::assertSame($order->id, self::shop()->getOrder($order->id)->id);
        self::assertNotNull(self::shop()->getCart($cart->id)->checkedOutAt);
        self::assertSame(OrderStatus::Cancelled, self::shop()->cancelOrder($order->id)->status);
    }

    public function testAddingMoreThanIsInStockIsAnInvalidRequestSayingHowManyAreLeft(): void
    {
        $cart = self::shop()->createCart(new CreateCartRequest(channel: 'WEB_DE'));
        try {
            self::shop()->addCartItem($cart->id, new AddCartItemRequest(sku: 'KG-00006', qty: 1));
            self::fail('added an item that is out of stock');
        } catch (InvalidRequestException $e) {
            self::assertSame(409, $e->status);
            self::assertSame(0, $e->problem['available']);
        }
    }

    public function testManagesCustomersAndPrices(): void
    {
        $customer = self::shop()->createCustomer(new CreateCustomerRequest(name: 'PHP Handel', tier: CustomerTier::Silver));
        $renamed = self::shop()->updateCustomer($customer->id, new UpdateCustomerRequest(name: 'PHP Handel GmbH'));
        self::assertSame(['PHP Handel GmbH', CustomerTier::Silver], [$renamed->name, self::shop()->getCustomer($customer->id)->tier]);
        $price = self::shop()->createPrice(new CreatePriceRequest(
            sku: 'KG-00002',
            channel: 'WEB_DE',
            level: PriceLevel::Agreement,
            amount: 100,
            customerId: $customer->id,
        ));
        self::assertSame(150, self::shop()->replacePrice($price->id, new ReplacePriceRequest(amount: 150))->amount);
        $pricing = self::shop()->getCustomerPricing($customer->id);
        self::assertSame([$price->id], array_map(static fn ($a) => $a->priceId, $pricing->agreements));
        self::shop()->deletePrice($price->id);
        $this->expectException(InvalidRequestException::class);
        self::shop()->getPrice($price->id);
    }

    /** @param list<\Keygate\Client\Model\CatalogProduct> $products */
    private static function bySku(array $products, string $sku): \Keygate\Client\Model\CatalogProduct
    {
        foreach ($products as $product) {
            if ($product->sku === $sku) {
                return $product;
            }
        }
        self::fail("{$sku} is not in the page");
    }
}
