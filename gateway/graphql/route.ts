import type { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import bodyParser from 'body-parser';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Config } from '../config';
import { explorerPage } from '../admin-files';
import { sendBody } from '../http/send';
import type { Services } from '../services';
import { buildContext, type Context } from './context';
import { graphqlBodyRefusal, queryTooLong } from './server';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * /graphql: opened in a browser, the explorer's page; every request for the API goes through Apollo Server's own
 * request pipeline (its Express integration), after its body is read within BODY_LIMIT and its query text within
 * GRAPHQL_MAX_QUERY_LENGTH. Any other address below /graphql is not served (the app's JSON 404).
 */
export function graphqlRoute(apollo: ApolloServer<Context>, services: Services, config: Config): Router {
  const router = Router();
  const json = bodyParser.json({ limit: config.BODY_LIMIT });
  // Apollo's integration reads `req.body`; a GET (a query in the address) has none.
  const bodyRead: RequestHandler = (req, _res, next) => {
    const request = req as { body?: unknown };
    if (!('body' in request)) request.body = undefined;
    next();
  };
  const refuseLongQuery: RequestHandler = (req, res, next) => {
    const tooLong = queryTooLong(req.method === 'GET' ? req.query.query : req.body, config);
    if (!tooLong) return next();
    sendBody(res, tooLong.status, JSON.stringify(tooLong.body), JSON_TYPE);
  };
  // A body the parser refused, answered the GraphQL way.
  const bodyRefused: ErrorRequestHandler = (error, _req, res, next) => {
    const refusal = graphqlBodyRefusal(error);
    if (!refusal) return next(error);
    sendBody(res, refusal.status, JSON.stringify(refusal.body), JSON_TYPE);
  };
  // A GraphQL answer may hold what only its caller may read (a GET query too): never kept by any cache.
  const notStored: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  router.get('/', explorerPage(config.PUBLIC_API_DOCS));
  router.all(
    '/',
    notStored,
    json,
    bodyRead,
    refuseLongQuery,
    expressMiddleware(apollo, { context: async ({ req }) => buildContext(req, services) }),
  );
  router.use(bodyRefused);
  return router;
}
