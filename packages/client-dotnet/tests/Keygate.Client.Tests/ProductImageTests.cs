using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Keygate.Client.Generated.Models;

namespace Keygate.Client.Tests;

public class ProductImageTests
{
    private const string Images = """{"sku":"KG-00001","images":[{"url":"https://cdn.example.com/a.webp","alt":"Front","width":640,"height":480}]}""";

    [Fact]
    public async Task SettingImagesPutsTheOrderedListWithTheCallersIdempotencyKey()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Images);

        var result = await test.Client.Catalog.SetProductImagesAsync(
            "KG-00001",
            [new SetProductImagesRequest_images { Url = "https://cdn.example.com/a.webp", Alt = "Front", Width = 640, Height = 480 }],
            new KeygateRequestOptions { IdempotencyKey = "images-1" });

        var request = Assert.Single(test.Stub.Requests);
        Assert.Equal(HttpMethod.Put, request.Method);
        Assert.Equal("/v2/catalog/products/KG-00001/images", request.Uri.AbsolutePath);
        Assert.Equal("""{"images":[{"alt":"Front","height":480,"url":"https://cdn.example.com/a.webp","width":640}]}""", request.Body);
        Assert.Equal("images-1", request.Headers["Idempotency-Key"]);
        var image = Assert.Single(result.Images!);
        Assert.Equal(("https://cdn.example.com/a.webp", "Front", 640, 480), (image.Url, image.Alt, image.Width, image.Height));
    }

    [Fact]
    public async Task TheCataloguesProductsCarryTheirImages()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, """{"data":[{"sku":"KG-00001","name":"Tea","images":[{"url":"/v2/media/products/KG-00001/T.svg","alt":"Tea","width":800,"height":800}]}],"nextCursor":null}""");

        var page = await test.Client.Catalog.ListProductsAsync("WEB_DE");

        var image = Assert.Single(Assert.Single(page.Data!).Images!);
        Assert.Equal("/v2/media/products/KG-00001/T.svg", image.Url);
        Assert.Equal(800, image.Width);
    }

    [Fact]
    public async Task AGeneratedImageComesBackAsItsBytes()
    {
        const string svg = """<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"></svg>""";
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK).Respond(r => r.Content = new StringContent(svg, Encoding.UTF8, new MediaTypeHeaderValue("image/svg+xml")));

        var bytes = await test.Client.Catalog.GetProductImageAsync("KG-00001", "T.svg");

        Assert.Equal("/v2/media/products/KG-00001/T.svg", Assert.Single(test.Stub.Requests).Uri.AbsolutePath);
        Assert.Equal(svg, Encoding.UTF8.GetString(bytes));
    }
}
