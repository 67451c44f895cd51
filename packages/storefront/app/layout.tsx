import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { requestOrigin } from '../src/lib/origin.ts';
import './globals.css';
import { SHOP_NAME } from '../src/lib/site.ts';

/** Pages give relative canonical and Open Graph URLs; this origin makes them absolute. */
export async function generateMetadata(): Promise<Metadata> {
  return {
    metadataBase: new URL(await requestOrigin()),
    title: { default: 'keygate shop', template: '%s · keygate shop' },
    description: 'A headless storefront starter on the keygate commerce API.',
    openGraph: { siteName: SHOP_NAME, type: 'website' },
  };
}

// Every page reads the visitor's cookies and live prices: nothing is prerendered at build time, so
// the shop builds with the API down and never bakes a price into HTML.
export const dynamic = 'force-dynamic';

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
