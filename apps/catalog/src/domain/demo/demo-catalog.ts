import type { ProductInput } from '../products/product-input';

// A small, realistic catalog for demos (SEED_DEMO_DATA=true): every product
// type, a variable product, a downloadable, a subscription, a bundle, low
// stock, a backorderable item and one whose stock is hidden.

export const DEMO_CATEGORIES = ['Clothing', 'Accessories', 'Home & Kitchen', 'Digital'] as const;
export const DEMO_TAGS = ['new', 'sale', 'eco', 'bestseller', 'gift'] as const;

type Category = (typeof DEMO_CATEGORIES)[number];
type Tag = (typeof DEMO_TAGS)[number];

export interface DemoProduct {
  key: string;
  categories: Category[];
  tags: Tag[];
  /** Keys of earlier demo products this bundle contains. */
  bundles?: string[];
  input: Omit<ProductInput, 'categories' | 'tags' | 'bundleProductIds'>;
}

const image = (text: string) => `https://placehold.co/600x600?text=${encodeURIComponent(text)}`;
const onetime = (amount: string, compareAtAmount?: string) => ({
  name: 'Standard',
  amount,
  compareAtAmount,
  currency: '',
  type: 'onetime',
  billingPeriod: '',
  billingInterval: 0,
  trialDays: 0,
});
const simple = (
  title: string,
  sku: string,
  amount: string,
  stock: number,
  extra: Partial<ProductInput> = {},
): ProductInput => ({
  title,
  status: 'publish',
  // Plain text: product content is rendered escaped, in paragraphs (decisions.md).
  content: `${title}: a customer favourite, made to last.`,
  excerpt: `${title}.`,
  productType: 'simple',
  sku,
  prices: [onetime(amount)],
  manageStock: true,
  stockQuantity: stock,
  images: [image(title)],
  ...extra,
});
const variation = (color: string, size: string, sku: string, stock: number, amount?: string) => ({
  attributes: { color, size },
  sku,
  barcode: '',
  priceId: 0,
  amount,
  stockQuantity: stock,
  image: image(`T-Shirt ${color}`),
});

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    key: 'tshirt',
    categories: ['Clothing'],
    tags: ['new', 'bestseller'],
    input: {
      ...simple('Classic T-Shirt', 'CLO-CLASTSHI-0001', '19.99', 0),
      productType: 'variable',
      stockQuantity: undefined,
      variations: [
        variation('Red', 'M', 'CLO-CLASTSHI-0002', 12),
        variation('Red', 'L', 'CLO-CLASTSHI-0003', 8),
        variation('Blue', 'M', 'CLO-CLASTSHI-0004', 15),
        variation('Blue', 'L', 'CLO-CLASTSHI-0005', 3, '21.99'),
      ],
    },
  },
  {
    key: 'hoodie',
    categories: ['Clothing'],
    tags: ['eco', 'sale'],
    input: simple('Organic Cotton Hoodie', 'CLO-ORGACOTT-0001', '49.00', 12, { prices: [onetime('49.00', '59.00')] }),
  },
  {
    key: 'beanie',
    categories: ['Accessories'],
    tags: ['gift'],
    input: simple('Wool Beanie', 'ACC-WOOLBEAN-0001', '15.00', 30),
  },
  {
    key: 'wallet',
    categories: ['Accessories'],
    tags: ['gift', 'bestseller'],
    input: simple('Leather Wallet', 'ACC-LEATWALL-0001', '39.50', 8),
  },
  {
    key: 'tote',
    categories: ['Accessories'],
    tags: ['eco'],
    input: simple('Canvas Tote Bag', 'ACC-CANVTOTE-0001', '12.00', 2),
  },
  {
    key: 'mug',
    categories: ['Home & Kitchen'],
    tags: ['gift'],
    input: simple('Ceramic Coffee Mug', 'HOM-CERACOFF-0001', '9.95', 40),
  },
  {
    key: 'press',
    categories: ['Home & Kitchen'],
    tags: [],
    input: simple('French Press', 'HOM-FRENPRES-0001', '29.00', 15),
  },
  {
    key: 'board',
    categories: ['Home & Kitchen'],
    tags: ['eco'],
    input: simple('Bamboo Cutting Board', 'HOM-BAMBCUTT-0001', '24.00', 0, { backordersAllowed: true }),
  },
  {
    key: 'plant',
    categories: ['Home & Kitchen'],
    tags: ['new'],
    input: simple('Desk Plant', 'HOM-DESKPLAN-0001', '22.00', 5, { hideStock: true }),
  },
  {
    key: 'ebook',
    categories: ['Digital'],
    tags: ['new'],
    input: {
      ...simple('Photography Basics (eBook)', 'DIG-PHOTBASI-0001', '14.99', 0),
      manageStock: false,
      stockQuantity: undefined,
      shippingRequired: false,
      downloadable: true,
      downloads: [
        { id: '', name: 'Photography Basics (PDF)', file: 'ebooks/photography-basics.pdf' },
      ],
    },
  },
  {
    key: 'coffee-club',
    categories: ['Home & Kitchen'],
    tags: ['bestseller'],
    input: {
      ...simple('Coffee Club Subscription', 'HOM-COFFCLUB-0001', '18.00', 0),
      manageStock: false,
      stockQuantity: undefined,
      prices: [
        {
          name: 'Monthly',
          amount: '18.00',
          currency: '',
          type: 'subscription',
          billingPeriod: 'month',
          billingInterval: 1,
          trialDays: 14,
        },
        {
          name: 'Yearly',
          amount: '180.00',
          currency: '',
          type: 'subscription',
          billingPeriod: 'year',
          billingInterval: 1,
          trialDays: 0,
        },
      ],
    },
  },
  {
    key: 'starter-bundle',
    categories: ['Home & Kitchen'],
    tags: ['sale', 'gift'],
    bundles: ['mug', 'press'],
    input: {
      ...simple('Coffee Starter Bundle', 'HOM-COFFSTAR-0001', '35.00', 0, { prices: [onetime('35.00', '38.95')] }),
      productType: 'bundle',
      manageStock: false,
      stockQuantity: undefined,
    },
  },
];
