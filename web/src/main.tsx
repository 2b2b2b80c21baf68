import '@mantine/core/styles.css';
import './app/global.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { installChunkReload } from './app/chunkReload';
import { AppProviders } from './app/providers';
import { createQueryClient, setAppQueryClient } from './lib/queryClient';
import { keepOfflineCopies } from './lib/offline/copies';
import { createAppRouter } from './app/router';
import { connectSession } from './app/startup';
import { registerServiceWorker } from './app/serviceWorker';

const container = document.getElementById('root');
if (!container) throw new Error('portico: #root element missing from index.html');

installChunkReload();
registerServiceWorker();

const queryClient = createQueryClient();
// Route loaders start fetching a page's data into this client while its chunk loads.
setAppQueryClient(queryClient);
// Recently opened pages stay readable offline (copies on the device).
keepOfflineCopies(queryClient);
// The saved session is restored before the router exists, so the guard's first run sees it.
void connectSession(() => router);
const router = createAppRouter();

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
