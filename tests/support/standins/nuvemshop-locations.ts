/**
 * The stand-in store's stock locations (Nuvemshop's multi-inventory) beyond their list: the plan's limit, the calls
 * that reorder them and choose the default, as strict as the platform's pages, and the `location/*` webhooks the store
 * sends when the merchant changes them in the store's own admin (which is what a test does here).
 *
 * Unverified, and kept to the strictest reading: whether a priority list that leaves out a location is refused (it
 * is, 422), and what either PATCH answers (the locations as `GET /locations` lists them, or the one made the default).
 */

/** A location as the stand-in keeps it (its list lives on the store: `StandInStore.locations`). */
export interface StandInLocation {
  id: string;
  name: string;
  priority: number;
}

/** What the locations need of their store. */
export interface LocationsHost {
  id: number;
  locations: StandInLocation[];
  webhooks: { event: string; url: string }[];
  /** A location added as the store adds it (every variant given a level there); the plan's limit is checked first. */
  addLocation(name: string): StandInLocation;
  /** The variants' levels at a location, removed with it. */
  dropLevelsAt(locationId: string): void;
}

/** Where the store's webhooks go: each registered address's path at `url`'s origin, signed with `secret`. */
export interface WebhookTarget {
  url: string;
  secret: string;
}

/** Posts a signed webhook (the stand-in's own `deliverWebhook`); answers the status. */
export type Deliver = (url: string, payload: Record<string, unknown>, secret: string) => Promise<number>;

/** A refusal of a location call, in the platform's shape: the stand-in's request path answers it as it is. */
export class LocationRefusal {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const refusal = (status: number, message: string, description: string) =>
  new LocationRefusal(status, { code: status, message, description });
const unprocessable = (description: string) => refusal(422, 'Unprocessable Entity', description);
const notFound = () => refusal(404, 'Not Found', 'Location with such id does not exist');

const timestamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+0000');
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A webhook the store sent: its event, the location it names, and the answer (0: no webhook registered for it). */
export interface SentWebhook {
  event: string;
  id: string;
  status: number;
}

/**
 * One store's locations as its merchant and the API change them. The plan allows `limit` of them (Freemium/Plan A 1,
 * Plan B 2, Plan C 3, Enterprise unlimited: `Infinity`, the stand-in's default). The default is one location,
 * the first one unless chosen; it cannot be deleted.
 */
export class StoreLocations {
  /** How many locations the store's plan allows. */
  limit = Infinity;
  /** The webhooks sent, in order. */
  readonly sent: SentWebhook[] = [];
  private defaultId: string | undefined;
  private readonly stamps = new Map<string, { created_at: string; updated_at: string }>();

  constructor(
    private readonly store: LocationsHost,
    private readonly target: () => WebhookTarget | undefined,
    private readonly deliver: Deliver,
  ) {
    // The store's first location is its default from the start: a new order does not move it.
    this.defaultId = store.locations[0]?.id;
  }

  /** Refuses a location past the plan's limit, as the store's admin and `POST /locations` do. */
  admit(): void {
    if (this.store.locations.length >= this.limit) {
      throw new Error(`The store's plan allows ${this.limit} location(s)`);
    }
  }

  /** The default location: the first in priority until one is chosen, and that one from then on. */
  get default(): StandInLocation | undefined {
    const chosen = this.store.locations.find((l) => l.id === this.defaultId);
    if (chosen) return chosen;
    const first = this.byPriority()[0];
    this.defaultId = first?.id;
    return first;
  }

  byPriority(): StandInLocation[] {
    return [...this.store.locations].sort((a, b) => a.priority - b.priority);
  }

  // --- what the merchant does in the store's admin: each sends its webhooks and answers once they are answered ---

  /** A new location, last in priority (`location/created`). */
  async add(name: string): Promise<StandInLocation> {
    const location = this.store.addLocation(name);
    await this.notify('location/created', location.id);
    return location;
  }

  async rename(id: string, name: string): Promise<void> {
    this.find(id).name = name;
    this.touch(id);
    await this.notify('location/updated', id);
  }

  /** Deletes a location with its stock (`location/deleted`); the default cannot be deleted. */
  async remove(id: string): Promise<void> {
    const location = this.find(id);
    if (this.default?.id === id) throw new Error('The default location cannot be deleted');
    this.store.locations.splice(this.store.locations.indexOf(location), 1);
    this.store.dropLevelsAt(id);
    this.stamps.delete(id);
    await this.notify('location/deleted', id);
  }

  /** The merchant's own order (`location/updated` for each location whose priority changed). */
  async reorder(ids: string[]): Promise<void> {
    const changed = this.apply(ids.map((id, priority) => ({ id, priority })));
    for (const id of changed) await this.notify('location/updated', id);
  }

  async makeDefault(id: string): Promise<void> {
    const before = this.default?.id;
    this.defaultId = this.find(id).id;
    for (const touched of new Set([before, id])) {
      if (!touched) continue;
      this.touch(touched);
      await this.notify('location/updated', touched);
    }
  }

  // --- the API ---

  /** A location as `GET /locations` lists it (the documentation's example's fields). */
  json(location: StandInLocation): Record<string, unknown> {
    const stamps = this.stampsOf(location.id);
    return {
      id: location.id,
      name: { pt_BR: location.name },
      store_id: String(this.store.id),
      priority: location.priority,
      address: {
        zipcode: '88010000',
        street: 'Rua das Flores',
        number: '100',
        floor: null,
        locality: 'Centro',
        city: 'Florianópolis',
        reference: null,
        between_streets: null,
        province: { code: 'SC', name: 'Santa Catarina' },
        region: { code: 'S', name: 'Sul' },
        country: { code: 'BR', name: 'Brasil' },
      },
      is_default: this.default?.id === location.id,
      allows_pickup: false,
      ...stamps,
    };
  }

  /** `GET /locations`: every location, in priority order. */
  list(): Record<string, unknown>[] {
    return this.byPriority().map((l) => this.json(l));
  }

  /**
   * `PATCH /locations/priorities`: `[{id, priority}]` naming every location of the store once, each with a whole
   * priority from 0, no two the same; all or nothing. Answers the locations in their new order.
   */
  setPriorities(body: unknown): Record<string, unknown>[] {
    if (!Array.isArray(body) || body.length === 0) {
      throw unprocessable('The body must be a list of locations, each with its id and its priority');
    }
    const given: { id: string; priority: number }[] = [];
    for (const item of body) {
      if (
        !isObject(item) ||
        typeof item.id !== 'string' ||
        !Number.isInteger(item.priority) ||
        Number(item.priority) < 0
      )
        throw unprocessable('Each location needs its id and a priority, a whole number from 0');
      given.push({ id: item.id, priority: Number(item.priority) });
    }
    if (given.some((g) => !this.store.locations.some((l) => l.id === g.id))) throw notFound();
    if (new Set(given.map((g) => g.id)).size !== given.length)
      throw unprocessable('A location cannot be given more than once');
    if (new Set(given.map((g) => g.priority)).size !== given.length)
      throw unprocessable('Two locations cannot have the same priority');
    if (given.length !== this.store.locations.length)
      throw unprocessable('The priorities must include every location of the store');
    this.apply(given);
    return this.list();
  }

  /** `PATCH /locations/{id}/chosen-as-default`: answers the location, now the default. */
  chooseDefault(id: string): Record<string, unknown> {
    const location = this.store.locations.find((l) => l.id === id);
    if (!location) throw notFound();
    const before = this.default?.id;
    this.defaultId = id;
    for (const touched of new Set([before, id])) if (touched) this.touch(touched);
    return this.json(location);
  }

  // ---

  private find(id: string): StandInLocation {
    const location = this.store.locations.find((l) => l.id === id);
    if (!location) throw new Error(`The store has no location ${id}`);
    return location;
  }

  /** New priorities; answers the ids whose priority changed. */
  private apply(priorities: { id: string; priority: number }[]): string[] {
    const changed: string[] = [];
    for (const { id, priority } of priorities) {
      const location = this.find(id);
      if (location.priority === priority) continue;
      location.priority = priority;
      this.touch(id);
      changed.push(id);
    }
    return changed;
  }

  private stampsOf(id: string) {
    let stamps = this.stamps.get(id);
    if (!stamps) this.stamps.set(id, (stamps = { created_at: timestamp(), updated_at: timestamp() }));
    return stamps;
  }

  private touch(id: string) {
    this.stampsOf(id).updated_at = timestamp();
  }

  /** Sends `event` for the location to each webhook the app registered for it, as the store does. */
  private async notify(event: string, id: string): Promise<void> {
    const target = this.target();
    const hooks = this.store.webhooks.filter((w) => w.event === event);
    if (!target || !hooks.length) {
      this.sent.push({ event, id, status: 0 });
      return;
    }
    for (const hook of hooks) {
      const registered = new URL(hook.url);
      const url = new URL(registered.pathname + registered.search, target.url).href;
      const status = await this.deliver(url, { store_id: this.store.id, event, id }, target.secret);
      this.sent.push({ event, id, status });
    }
  }
}
