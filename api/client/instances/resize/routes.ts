import * as preview from './preview.js';
import * as request from './request.js';

export const resizeRoutes = [preview, request];
