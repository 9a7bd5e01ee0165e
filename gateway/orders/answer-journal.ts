import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { sleep } from '../platforms/platform-call';
import { moveOrder } from './order-rows';

/** Hiper's id of one order's sales order, with what its history says, not yet saved on the order's row. */
export interface KeptAnswer {
  orderId: string;
  hiperOrderId: string;
  note: string;
  /** When Hiper answered (ISO 8601): the order's `sent_at`. */
  at: string;
}

/** How long a send waits, retrying, for its answer to be saved before it leaves it to the watch. */
const SAVE_WAIT_MS = 20_000;
const FIRST_RETRY_MS = 200;
const LONGEST_RETRY_MS = 5_000;

/**
 * Keeps Hiper's answer to a sales order until the order's row holds it. The id is the only proof that Hiper holds the
 * order: lost to a database that cannot be reached at that moment, it would leave the order `uncertain` and invite a
 * second sales order. So the answer is written to a file (fsynced, one per order, in a folder of this database's own)
 * before the row is changed, saved with retries and backoff, and the file removed once the row holds it; what is
 * still kept is saved by the orders' watch of this process or, after a crash, of the next one started on this machine.
 *
 * The queue cannot keep it: it lives in the same database. A folder that cannot be written leaves the answer kept in
 * memory only, with a warning.
 */
export class AnswerJournal {
  private readonly folder: string;
  private readonly inMemory = new Map<string, KeptAnswer>();
  private ready?: Promise<unknown>;

  constructor(
    private readonly orm: MikroORM,
    folder: string,
    private readonly log: Logger,
  ) {
    this.folder = answerFolder(folder, orm.config.get('clientUrl') ?? 'postgres://localhost/');
  }

  /**
   * Keeps the answer, then saves it on the order's row, retrying for a while: answers whether the row holds it now
   * (false: the watch saves it later).
   */
  async keep(answer: KeptAnswer): Promise<boolean> {
    this.inMemory.set(answer.orderId, answer);
    await this.write(answer);
    let wait = FIRST_RETRY_MS;
    const until = Date.now() + SAVE_WAIT_MS;
    for (;;) {
      if (await this.trySave(answer)) return true;
      if (Date.now() + wait > until) return false;
      await sleep(wait);
      wait = Math.min(wait * 2, LONGEST_RETRY_MS);
    }
  }

  /** Saves every answer still kept, by this process or by one that died on this machine: answers how many. */
  async saveKept(): Promise<{ saved: number; kept: number }> {
    const kept = new Map(this.inMemory);
    for (const answer of await this.readFolder()) kept.set(answer.orderId, answer);
    let saved = 0;
    for (const answer of kept.values()) if (await this.trySave(answer)) saved++;
    return { saved, kept: kept.size - saved };
  }

  /** Saves one answer: true once the row holds it (or can never: the order is gone or moved on), then forgets it. */
  private async trySave(answer: KeptAnswer): Promise<boolean> {
    let moved: boolean;
    try {
      moved = await moveOrder(
        this.orm.em.fork(),
        answer.orderId,
        { state: 'sent', hiper_order_id: answer.hiperOrderId, sent_at: new Date(answer.at), sending_since: null },
        answer.note,
        // A watch that found the row left `sending` may have made it uncertain meanwhile: the id settles that.
        ['sending', 'uncertain'],
      );
    } catch (error) {
      this.log.warn({ order: answer.orderId, err: { message: messageOf(error) } }, 'order answer not saved yet');
      return false;
    }
    if (!moved) this.log.warn({ order: answer.orderId }, 'order answer kept for an order no longer being sent');
    this.inMemory.delete(answer.orderId);
    await unlink(this.fileOf(answer.orderId)).catch(() => undefined);
    return true;
  }

  private fileOf(orderId: string): string {
    return path.join(this.folder, `${orderId}.json`);
  }

  private async write(answer: KeptAnswer): Promise<void> {
    try {
      await (this.ready ??= mkdir(this.folder, { recursive: true }));
      const file = this.fileOf(answer.orderId);
      const temporary = `${file}.${process.pid}.tmp`;
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(JSON.stringify(answer));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
    } catch (error) {
      this.ready = undefined;
      this.log.warn({ order: answer.orderId, err: { message: messageOf(error) } }, 'order answer kept in memory only');
    }
  }

  private async readFolder(): Promise<KeptAnswer[]> {
    let names: string[];
    try {
      names = (await readdir(this.folder)).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const answers: KeptAnswer[] = [];
    for (const name of names) {
      try {
        const answer = JSON.parse(await readFile(path.join(this.folder, name), 'utf8')) as KeptAnswer;
        if (typeof answer.orderId === 'string' && typeof answer.hiperOrderId === 'string') answers.push(answer);
      } catch {
        // A file being written by another process: read at the next watch.
      }
    }
    return answers;
  }
}

/** The folder of one database's kept answers: answers kept for one database are never saved, or dropped, by another's. */
export function answerFolder(base: string, databaseUrl: string): string {
  const database = new URL(databaseUrl);
  const name = `${database.hostname}:${database.port || 5432}${database.pathname}`;
  return path.join(base, createHash('sha256').update(name).digest('hex').slice(0, 16));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
