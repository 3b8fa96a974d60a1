/**
 * What the hosted service answers for any path it does not route: its web app's HTML with 200
 * (docs/service-behaviour.md §1.4). Clients use this to tell "wrong base URL" from "API error".
 */
export const spaPage = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>OpenHands</title>
    <script type="module" crossorigin src="/assets/index-sim7f3a1c.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-sim9b20d4.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
