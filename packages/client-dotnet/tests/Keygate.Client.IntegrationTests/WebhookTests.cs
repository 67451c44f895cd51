using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Keygate.Client.IntegrationTests;

public class WebhookTests
{
    [Fact]
    public async Task VerifiesARealDeliveryFromCommerce()
    {
        var port = FreePort();
        using var listener = new HttpListener();
        listener.Prefixes.Add($"http://127.0.0.1:{port}/hooks/");
        listener.Start();
        using var client = Env.Client(Env.AdminKey);
        var endpoint = await client.Webhooks.CreateEndpointAsync($"http://127.0.0.1:{port}/hooks/", ["stock.updated"]);
        Assert.StartsWith("whsec_", endpoint.Secret);

        var receiving = listener.GetContextAsync();
        await client.Stock.SetAsync("KG-00002", 17);
        var context = await receiving.WaitAsync(TimeSpan.FromSeconds(30));
        string body;
        using (var reader = new StreamReader(context.Request.InputStream, Encoding.UTF8)) body = await reader.ReadToEndAsync();
        var headers = context.Request.Headers.AllKeys.Select(name => new KeyValuePair<string, string>(name!, context.Request.Headers[name]!)).ToList();
        context.Response.StatusCode = 204;
        context.Response.Close();

        var verified = KeygateWebhook.Verify(endpoint.Secret!, headers, body);
        Assert.StartsWith("msg_", verified.Id);
        Assert.Equal("stock.updated", verified.Payload.GetProperty("type").GetString());
        Assert.Equal("test", verified.Payload.GetProperty("environment").GetString());
        Assert.Equal(17, verified.Payload.GetProperty("data").GetProperty("new").GetProperty("onHand").GetInt32());
        var forged = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers, body));
        Assert.Equal(WebhookVerificationCode.NoMatchingSignature, forged.Code);
        await client.Webhooks.DeleteEndpointAsync(endpoint.Id!);
    }

    private static int FreePort()
    {
        using var socket = new TcpListener(IPAddress.Loopback, 0);
        socket.Start();
        return ((IPEndPoint)socket.LocalEndpoint).Port;
    }
}
