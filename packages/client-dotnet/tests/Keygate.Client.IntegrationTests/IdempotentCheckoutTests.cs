namespace Keygate.Client.IntegrationTests;

/// <summary>
/// Run by tests/e2e/client-dotnet.test.ts through its proxy (<c>KEYGATE_PROXY_URL</c>), which forwards the first
/// checkout to the gateway, lets it take effect and then drops the connection instead of answering.
/// </summary>
public class IdempotentCheckoutTests
{
    [Fact]
    public async Task ACheckoutWhoseAnswerIsLostIsRetriedAndReturnsTheOneOrder()
    {
        var key = await Env.CreateKeyAsync("dotnet-idempotent", "article:r", "order:rw");
        var proxy = new Uri(Environment.GetEnvironmentVariable("KEYGATE_PROXY_URL") is { Length: > 0 } url
            ? url
            : throw new InvalidOperationException("KEYGATE_PROXY_URL is not set: run this test through tests/e2e/client-dotnet.test.ts"));
        using var client = Env.Client(key.Secret!, o => o.BaseUrl = proxy);

        var cart = await client.Carts.CreateAsync("WEB_DE", customerId: "cus_0003");
        cart = await client.Carts.AddItemAsync(cart.Id!, "KG-00005", 1);
        var order = await client.Carts.CheckoutAsync(cart.Id!);

        Assert.StartsWith("ord_", order.Id);
        Assert.Equal(cart.Id, order.CartId);
        var read = await client.Carts.GetAsync(cart.Id!);
        Assert.NotNull(read.CheckedOutAt);
        // The e2e test counts the cart's orders in commerce's database and checks this id against the dropped answer.
        Console.WriteLine($"idempotent checkout: cart {cart.Id} order {order.Id}");
    }
}
