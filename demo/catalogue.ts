import { crc32, deflateSync } from 'node:zlib';
import type { HiperAccount, ProductSeed } from '../tests/support/standins/hiper';

/**
 * The demo ERP's catalogue: three simple products (one with two images), a grade of four variants and an inactive
 * product, which the first synchronisation leaves out. `images` is the address the ERP page serves pictures from.
 */
export function demoCatalogue(images: string): ProductSeed[] {
  return [
    {
      codigo: 1001,
      nome: 'Camiseta Básica Branca',
      descricao: 'Camiseta de algodão, corte reto.',
      marca: 'Demo Têxtil',
      categoria: 'Roupas',
      preco: 49.9,
      quantidadeEmEstoque: 25,
      codigoDeBarras: '7890000010017',
      imagem: `${images}/camiseta.png`,
      peso: 0.2,
      altura: 3,
      largura: 25,
      comprimento: 30,
    },
    {
      codigo: 1002,
      nome: 'Caneca de Cerâmica',
      descricao: 'Caneca de 300 ml, vai ao micro-ondas.',
      marca: 'Demo Casa',
      categoria: 'Casa',
      preco: 29.9,
      quantidadeEmEstoque: 40,
      codigoDeBarras: '7890000010024',
      imagem: `${images}/caneca.png`,
      peso: 0.35,
      altura: 10,
      largura: 9,
      comprimento: 12,
    },
    {
      codigo: 1003,
      nome: 'Boné Aba Curva',
      descricao: 'Boné ajustável de sarja.',
      marca: 'Demo Têxtil',
      categoria: 'Acessórios',
      preco: 59.9,
      quantidadeEmEstoque: 12,
      imagem: `${images}/bone.png`,
      imagensAdicionais: [{ imagem: `${images}/bone-lado.png` }],
    },
    {
      codigo: 1004,
      nome: 'Tênis de Corrida',
      descricao: 'Tênis leve com solado de borracha.',
      marca: 'Demo Esportes',
      categoria: 'Calçados',
      preco: 199.9,
      imagem: `${images}/tenis.png`,
      peso: 0.8,
      variacao: [
        {
          tipoVariacaoA: 'Cor',
          nomeVariacaoA: 'Azul',
          tipoVariacaoB: 'Tamanho',
          nomeVariacaoB: '40',
          quantidadeEmEstoque: 5,
        },
        {
          tipoVariacaoA: 'Cor',
          nomeVariacaoA: 'Azul',
          tipoVariacaoB: 'Tamanho',
          nomeVariacaoB: '42',
          quantidadeEmEstoque: 3,
        },
        {
          tipoVariacaoA: 'Cor',
          nomeVariacaoA: 'Preto',
          tipoVariacaoB: 'Tamanho',
          nomeVariacaoB: '40',
          quantidadeEmEstoque: 4,
        },
        {
          tipoVariacaoA: 'Cor',
          nomeVariacaoA: 'Preto',
          tipoVariacaoB: 'Tamanho',
          nomeVariacaoB: '42',
          quantidadeEmEstoque: 0,
        },
      ],
    },
    {
      codigo: 1005,
      nome: 'Mochila Escolar (fora de linha)',
      descricao: 'Inativa no ERP: não vai para a loja enquanto estiver inativa.',
      marca: 'Demo Acessórios',
      categoria: 'Acessórios',
      preco: 89.9,
      quantidadeEmEstoque: 7,
      ativo: false,
      imagem: `${images}/mochila.png`,
    },
  ];
}

/** The colour of each picture the ERP page serves (`/images/{name}.png`), by name. */
export const PICTURES: Record<string, [number, number, number]> = {
  camiseta: [232, 238, 247],
  caneca: [247, 236, 217],
  bone: [220, 239, 224],
  'bone-lado': [201, 230, 207],
  tenis: [221, 227, 248],
  mochila: [237, 220, 220],
};

/**
 * A picture as a PNG file, the kinds of file the store takes (.gif, .jpg, .png, .webp): a square of the colour with a
 * darker frame, drawn here so that the demo needs no image files.
 */
export function picturePng([r, g, b]: [number, number, number], size = 160): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) {
      const frame = x < 8 || y < 8 || x >= size - 8 || y >= size - 8 ? 0.7 : 1;
      rows.set([r * frame, g * frame, b * frame].map(Math.round), row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Adds the catalogue to the account. */
export function seedCatalogue(account: HiperAccount, images: string): void {
  for (const seed of demoCatalogue(images)) account.add(seed);
}
