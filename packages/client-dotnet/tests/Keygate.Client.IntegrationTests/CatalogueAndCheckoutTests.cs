using Keygate.Client.Generated.Models;

namespace Keygate.Client.IntegrationTests;

public class CatalogueAndCheckoutTests
{
    [Fact]
    public async Task ANewKeyReadsTheCatalogueForAChannelAndACustomer()
    {
        var key = await Env.CreateKeyAsync("dotnet-catalogue", "article:r");
        Assert.StartsWith("kg_test_", key.Secret);
        using var client = Env.Client(key.Secret!);

        var channels = await client.Catalog.ListChannelsAsync();
        Assert.Contains(channels.Data!, channel => channel.Code == "WEB_DE");
        var listed = await client.Catalog.ListProductsAsync("WEB_DE", limit: 100);
        var agreed = await client.Catalog.ListProductsAsync("WEB_DE", customer: "cus_0003", limit: 100);

        var listPrice = listed.Data!.Single(p => p.Sku == "KG-00003").Price!;
        var customerPrice = agreed.Data!.Single(p => p.Sku == "KG-00003").Price!;
        Assert.Equal("EUR", customerPrice.Currency);
        Assert.True(customerPrice.Gross < listPrice.Gross, $"cus_0003's agreement price {customerPrice.Gross} is below the list price {listPrice.Gross}");
        Assert.Equal(listed.Data!.Select(p => p.Sku), agreed.Data!.Select(p => p.Sku));
        Assert.NotNull(client.RateLimit);
        Assert.Equal("per-key", client.RateLimit.Policy);
    }

    [Fact]
    public async Task GraphqlPricesProductsForATier()
    {
        using var client = Env.Client(Env.AdminKey);

        using var result = await client.Catalog.QueryGraphqlAsync(
            "query($first: Int) { products(channel: WEB_DE, first: $first) { sku retail: price { gross } gold: price(tier: \"gold\") { gross } } }",
            new Dictionary<string, object?> { ["first"] = 5 });

        var products = result.RootElement.GetProperty("data").GetProperty("products");
        Assert.Equal(5, products.GetArrayLength());
        foreach (var product in products.EnumerateArray())
            Assert.True(product.GetProperty("gold").GetProperty("gross").GetInt32() <= product.GetProperty("retail").GetProperty("gross").GetInt32());
    }

    [Fact]
    public async Task AddsToACartAndChecksOut()
    {
        var key = await Env.CreateKeyAsync("dotnet-shop", "article:r", "order:rw");
        using var client = Env.Client(key.Secret!);

        var cart = await client.Carts.CreateAsync("WEB_DE", customerId: "cus_0003");
        cart = await client.Carts.AddItemAsync(cart.Id!, "KG-00003", 2);
        var order = await client.Carts.CheckoutAsync(cart.Id!);

        var line = Assert.Single(cart.Lines!);
        Assert.Equal(("KG-00003", 2), (line.Sku, line.Qty));
        Assert.StartsWith("ord_", order.Id);
        Assert.Equal(cart.Id, order.CartId);
        Assert.Equal("cus_0003", order.CustomerId);
        Assert.Equal(cart.Totals!.Gross, order.Totals!.Gross);
        var read = await client.Orders.GetAsync(order.Id!);
        Assert.Equal(order.Id, read.Id);
        DateTimeOffset? checkedOutAt = (await client.Carts.GetAsync(cart.Id!)).CheckedOutAt;
        Assert.InRange(checkedOutAt!.Value, DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddMinutes(1));
        var checkedOut = await Assert.ThrowsAsync<KeygateProblemException>(() => client.Carts.CheckoutAsync(cart.Id!));
        Assert.Equal(409, checkedOut.Status);
    }

    [Fact]
    public async Task ChangesAndRemovesCartLines()
    {
        var key = await Env.CreateKeyAsync("dotnet-lines", "article:r", "order:rw");
        using var client = Env.Client(key.Secret!);

        var cart = await client.Carts.CreateAsync("WEB_DE");
        await client.Carts.AddItemAsync(cart.Id!, "KG-00001", 1);
        await client.Carts.AddItemAsync(cart.Id!, "KG-00002", 1);
        var changed = await client.Carts.UpdateItemAsync(cart.Id!, "KG-00001", 3);
        var removed = await client.Carts.RemoveItemAsync(cart.Id!, "KG-00002");

        Assert.Equal([("KG-00001", 3), ("KG-00002", 1)], changed.Lines!.Select(l => (l.Sku!, l.Qty ?? 0)).Order());
        Assert.Equal(("KG-00001", 3), (Assert.Single(removed.Lines!).Sku, removed.Lines![0].Qty));
        Assert.Null(removed.CheckedOutAt);
        Assert.Null(removed.CustomerId);
    }

    [Fact]
    public async Task AMissingScopeIsATyped403NamingIt()
    {
        var key = await Env.CreateKeyAsync("dotnet-reader", "article:r");
        using var client = Env.Client(key.Secret!);

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => client.Carts.CreateAsync("WEB_DE"));

        Assert.Equal(403, problem.Status);
        Assert.Equal("INSUFFICIENT_SCOPE", problem.Code);
        Assert.Equal("order:rw", problem.RequiredScope);
        Assert.Equal("https://keygate.dev/problems/insufficient-scope", problem.Type);
        Assert.StartsWith("req_", problem.RequestId);
    }
}
